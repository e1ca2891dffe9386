#include "cpu/histogram_median.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "cpu/rank_transform.hpp"

namespace fastmedian::detail {

namespace {

// Counts of values in [0, levels): fine bins, and coarse bins of 2^shift fine bins each. The
// answer is tracked on both levels, each with how many values lie below it: first the coarse
// bin that holds it is found by walking coarse bins, then the value by walking fine bins inside
// that bin from wherever is nearest (the last answer, or either end of the bin). Neighbouring
// windows share all but a few values, so both walks are usually a step or two.
class TwoLevelHistogram {
public:
    // fine_ covers whole coarse bins, so a walk from the end of a partial last bin stays inside.
    TwoLevelHistogram(std::uint32_t levels, int shift)
        : shift_(shift), fine_(static_cast<std::size_t>((levels >> shift) + 1) << shift, 0),
          coarse_((levels >> shift) + 1, 0) {}

    void add(std::uint32_t v) {
        ++fine_[v];
        ++coarse_[v >> shift_];
        below_bin_ += (v >> shift_) < bin_;
        below_med_ += v < med_;
    }
    void remove(std::uint32_t v) {
        --fine_[v];
        --coarse_[v >> shift_];
        below_bin_ -= (v >> shift_) < bin_;
        below_med_ -= v < med_;
    }

    // The value of rank `rank` among the values held.
    std::uint32_t select(std::uint32_t rank) {
        while (below_bin_ > rank) below_bin_ -= coarse_[--bin_];
        while (below_bin_ + coarse_[bin_] <= rank) below_bin_ += coarse_[bin_++];
        const std::uint32_t first = bin_ << shift_, last = first + (1u << shift_) - 1;
        if ((med_ >> shift_) != bin_) {  // restart from the nearer end of the bin
            if (rank - below_bin_ < coarse_[bin_] / 2) {
                med_ = first;
                below_med_ = below_bin_;
            } else {
                med_ = last;
                below_med_ = below_bin_ + coarse_[bin_] - fine_[last];
            }
        }
        while (below_med_ > rank) below_med_ -= fine_[--med_];
        while (below_med_ + fine_[med_] <= rank) below_med_ += fine_[med_++];
        return med_;
    }

private:
    int shift_;
    std::vector<std::uint32_t> fine_, coarse_;
    std::uint32_t bin_ = 0, below_bin_ = 0;  // the answer's coarse bin, values below its start
    std::uint32_t med_ = 0, below_med_ = 0;  // the last answer, values below it
};

// The left end (inclusive) and one past the right end of each window row run at x = 0.
struct Runs {
    std::vector<std::int64_t> left, right;
};

Runs window_runs(const Footprint& fp) {
    Runs r;
    for (int hw : fp.half_width) {
        r.left.push_back(fp.radius_x - hw);
        r.right.push_back(fp.radius_x + hw + 1);
    }
    return r;
}

// Median of every output of the block over values in [0, levels); out may alias nothing in in.
template <class V, class Out>
void huang(const V* const* in, Out* out, std::int64_t out_stride,
           std::int64_t width, int rows, const Footprint& fp, std::uint32_t levels, int shift) {
    TwoLevelHistogram hist(levels, shift);
    const Runs runs = window_runs(fp);
    const int n_runs = static_cast<int>(runs.left.size());
    const auto rank = static_cast<std::uint32_t>(fp.rank());
    for (int y = 0; y < rows; ++y) {
        const V* const* top = in + y;
        for (int j = 0; j < n_runs; ++j)
            for (std::int64_t p = runs.left[j]; p < runs.right[j]; ++p) hist.add(top[j][p]);
        Out* o = out + y * out_stride;
        o[0] = static_cast<Out>(hist.select(rank));
        for (std::int64_t x = 1; x < width; ++x) {
            for (int j = 0; j < n_runs; ++j) {
                const V* row = top[j] + x;
                hist.remove(row[runs.left[j] - 1]);
                hist.add(row[runs.right[j] - 1]);
            }
            o[x] = static_cast<Out>(hist.select(rank));
        }
        // Empty the histogram for the next row by removing the last window.
        for (int j = 0; j < n_runs; ++j)
            for (std::int64_t p = runs.left[j]; p < runs.right[j]; ++p)
                hist.remove(top[j][width - 1 + p]);
    }
}

// Perreault and Hebert's constant-time median ("Median Filtering in Constant Time", 2007) for
// u8 squares: a histogram per input column over the window's rows, moved down one row per
// output row (one value out, one in); along a row, the window's coarse histogram (16 bins)
// adds the entering column's and subtracts the leaving one's, and only the 16 fine bins of the
// coarse bin that holds the median are brought up to date, from the columns passed since they
// last were. The work per output is then the same for every window size, where Huang's
// sliding histogram changes 2 x k bins.
class ConstantTimeU8 {
public:
    using Segment = std::array<std::uint16_t, 16>;  // 16 bins; counts stay below 2^16

    ConstantTimeU8(const KeyBlock<std::uint8_t>& b, const Footprint& fp)
        : b_(b), k_(2 * fp.radius_x + 1), rank_(static_cast<std::uint32_t>(fp.rank())),
          columns_(b.width + 2 * fp.radius_x), fine_(static_cast<std::size_t>(columns_) * 16),
          coarse_(static_cast<std::size_t>(columns_)) {}

    void run() {
        for (int r = 0; r < k_; ++r)
            for (std::int64_t c = 0; c < columns_; ++c) add(c, b_.in[r][c]);
        for (int y = 0; y < b_.rows; ++y) {
            if (y > 0)
                for (std::int64_t c = 0; c < columns_; ++c) {
                    remove(c, b_.in[y - 1][c]);
                    add(c, b_.in[y - 1 + k_][c]);
                }
            row(b_.out + y * b_.out_stride);
        }
    }

private:
    void add(std::int64_t c, std::uint8_t v) {
        ++fine_[c * 16 + (v >> 4)][v & 15];
        ++coarse_[c][v >> 4];
    }
    void remove(std::int64_t c, std::uint8_t v) {
        --fine_[c * 16 + (v >> 4)][v & 15];
        --coarse_[c][v >> 4];
    }
    static void add_to(Segment& to, const Segment& a, const Segment& minus) {
        for (int i = 0; i < 16; ++i)
            to[i] = static_cast<std::uint16_t>(to[i] + a[i] - minus[i]);
    }

    // The medians of one output row: windows over columns [x, x + k).
    void row(std::uint8_t* out) {
        Segment coarse{}, zero{};
        for (int c = 0; c < k_; ++c) add_to(coarse, coarse_[c], zero);
        std::array<Segment, 16> fine;         // the window's fine bins of each coarse bin,
        std::array<std::int64_t, 16> at;      // as of the window at column at[bin]
        at.fill(-1);
        for (std::int64_t x = 0; x < b_.width; ++x) {
            if (x > 0) add_to(coarse, coarse_[x + k_ - 1], coarse_[x - 1]);
            std::uint32_t below = 0;
            int bin = 0;
            while (below + coarse[bin] <= rank_) below += coarse[bin++];
            Segment& f = fine[bin];
            if (at[bin] < 0 || x - at[bin] >= k_) {  // the window has moved past all it held
                f = zero;
                for (int c = 0; c < k_; ++c) add_to(f, fine_[(x + c) * 16 + bin], zero);
            } else {
                for (std::int64_t p = at[bin] + 1; p <= x; ++p)
                    add_to(f, fine_[(p + k_ - 1) * 16 + bin], fine_[(p - 1) * 16 + bin]);
            }
            at[bin] = x;
            int v = 0;
            while (below + f[v] <= rank_) below += f[v++];
            out[x] = static_cast<std::uint8_t>(bin * 16 + v);
        }
    }

    const KeyBlock<std::uint8_t>& b_;
    int k_;
    std::uint32_t rank_;
    std::int64_t columns_;
    std::vector<Segment> fine_;    // column c's fine bins of coarse bin i at [c * 16 + i]
    std::vector<Segment> coarse_;  // column c's coarse bins
};

// Squares whose window counts fit the 16-bit bins (to 255 x 255).
bool constant_time_u8(const Footprint& fp) { return fp.square() && fp.count <= 65535; }

// Output rows per block: 64 for Huang's histograms (the float path ranks each block's keys at
// once); 256 for the constant-time u8 squares, which set up their column histograms per block.
constexpr int kBlockRows = 64;
constexpr int kConstantTimeBlockRows = 256;

}  // namespace

template <>
int histogram_block_rows<std::uint8_t>(const Footprint& fp) {
    return constant_time_u8(fp) ? kConstantTimeBlockRows : kBlockRows;
}

template <>
int histogram_block_rows<std::uint16_t>(const Footprint&) {
    return kBlockRows;
}

template <>
int histogram_block_rows<std::uint32_t>(const Footprint&) {
    return kBlockRows;
}

template <>
void histogram_median(const KeyBlock<std::uint8_t>& b, const Footprint& fp) {
    if (constant_time_u8(fp)) ConstantTimeU8(b, fp).run();
    else huang(b.in, b.out, b.out_stride, b.width, b.rows, fp, 256, 4);
}

template <>
void histogram_median(const KeyBlock<std::uint16_t>& b, const Footprint& fp) {
    huang(b.in, b.out, b.out_stride, b.width, b.rows, fp, 65536, 8);
}

template <>
void histogram_median(const KeyBlock<std::uint32_t>& b, const Footprint& fp) {
    const std::int64_t in_width = b.width + 2 * fp.radius_x;
    RankedKeys ranked;
    const int in_rows = b.rows + 2 * fp.radius_y;
    rank_keys(b.in, in_width, in_rows, ranked);
    const auto levels = static_cast<std::uint32_t>(ranked.keys.size());
    int shift = 4;
    while ((std::uint64_t{1} << (2 * shift)) < levels) ++shift;  // about sqrt(levels) coarse bins
    std::vector<const std::uint32_t*> rank_rows(static_cast<std::size_t>(in_rows));
    for (int r = 0; r < in_rows; ++r) rank_rows[r] = ranked.ranks.data() + r * in_width;
    huang(rank_rows.data(), b.out, b.out_stride, b.width, b.rows, fp, levels, shift);
    for (int y = 0; y < b.rows; ++y)
        for (std::int64_t x = 0; x < b.width; ++x)
            b.out[y * b.out_stride + x] = ranked.keys[b.out[y * b.out_stride + x]];
}

}  // namespace fastmedian::detail
