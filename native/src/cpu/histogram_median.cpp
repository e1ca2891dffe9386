#include "cpu/histogram_median.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
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

// The shift that splits ranks in [0, levels) into coarse and fine bins, about sqrt(levels) of
// each, and at least 16 fine bins (whole vectors for ConstantTimeRanks).
int sqrt_shift(std::uint32_t levels) {
    int shift = 4;
    while ((std::uint64_t{1} << (2 * shift)) < levels) ++shift;
    return shift;
}

// Perreault and Hebert's constant-time median, as ConstantTimeU8, over dense ranks in
// [0, levels) (u16 pixels and float keys, ranked per block): coarse bins of 2^shift ranks,
// about sqrt(levels) of them, and a fine histogram of every rank per input column. A column
// holds k values, so its counts are 8-bit (windows to 255 x 255; the window's own counts are
// 16-bit). Still, they take levels bytes a column, so the block goes in strips of output
// columns whose histograms fit kStripBytes, a share of a core's L2 cache (or as narrow as
// kMinStripColumns).
class ConstantTimeRanks {
public:
    ConstantTimeRanks(const RankedKeys& ranked, std::int64_t in_width, std::int64_t width,
                      int rows, const Footprint& fp, std::vector<std::uint8_t>& counts)
        : ranked_(ranked), in_width_(in_width), width_(width), rows_(rows),
          k_(2 * fp.radius_x + 1), rank_(static_cast<std::uint32_t>(fp.rank())),
          shift_(sqrt_shift(static_cast<std::uint32_t>(ranked.keys.size()))),
          fine_bins_(1 << shift_),
          coarse_bins_(coarse_bins(static_cast<std::uint32_t>(ranked.keys.size()), shift_)),
          padded_levels_(static_cast<std::int64_t>(coarse_bins_) << shift_),
          strip_(strip_columns(width, fp.radius_x, padded_levels_ + coarse_bins_)),
          at_(static_cast<std::size_t>(coarse_bins_)) {
        const std::int64_t columns = strip_ + k_ - 1;
        const auto need = static_cast<std::size_t>(columns * (padded_levels_ + coarse_bins_));
        if (counts.size() < need) counts.resize(need, 0);  // zero, as every block leaves it
        fine_ = counts.data();
        coarse_ = fine_ + columns * padded_levels_;
        window_fine_.assign(static_cast<std::size_t>(padded_levels_), 0);
        window_coarse_.assign(static_cast<std::size_t>(coarse_bins_), 0);
    }

    template <class K>
    void run(K* out, std::int64_t out_stride) {
        for (std::int64_t x0 = 0; x0 < width_; x0 += strip_) {
            const std::int64_t outputs = std::min(strip_, width_ - x0), columns = outputs + k_ - 1;
            for (int r = 0; r < k_; ++r)
                for (std::int64_t c = 0; c < columns; ++c) add(c, row(r)[x0 + c], 1);
            for (int y = 0; y < rows_; ++y) strip_row(out + y * out_stride + x0, outputs, x0, y);
            for (int r = rows_ - 1; r < rows_ - 1 + k_; ++r)  // back to zero for the next strip
                for (std::int64_t c = 0; c < columns; ++c) add(c, row(r)[x0 + c], -1);
        }
    }

    // The bytes of column counts that a block of `levels` distinct keys takes at the least
    // (strips of kMinStripColumns outputs).
    static std::int64_t least_counts_bytes(std::uint32_t levels, int radius) {
        const int shift = sqrt_shift(levels), coarse = coarse_bins(levels, shift);
        return (kMinStripColumns + 2 * radius) * ((std::int64_t{coarse} << shift) + coarse);
    }

private:
    static constexpr std::int64_t kStripBytes = std::int64_t{1} << 20;
    static constexpr std::int64_t kMinStripColumns = 64;

    static int coarse_bins(std::uint32_t levels, int shift) {  // a multiple of 16: whole vectors
        return static_cast<int>((((levels - 1) >> shift) + 16) / 16 * 16);
    }
    static std::int64_t strip_columns(std::int64_t width, int radius, std::int64_t counts) {
        const std::int64_t fit = kStripBytes / counts - 2 * radius;
        return std::min(width, std::max(kMinStripColumns, fit));
    }

    const std::uint32_t* row(int r) const { return ranked_.ranks.data() + r * in_width_; }
    std::uint8_t* fine(std::int64_t c) const { return fine_ + c * padded_levels_; }
    std::uint8_t* coarse(std::int64_t c) const { return coarse_ + c * coarse_bins_; }
    void add(std::int64_t c, std::uint32_t v, int by) {
        fine(c)[v] = static_cast<std::uint8_t>(fine(c)[v] + by);
        coarse(c)[v >> shift_] = static_cast<std::uint8_t>(coarse(c)[v >> shift_] + by);
    }
    // Column c of the strip (input column x0 + c) moves down from output row y - 1 to y.
    void move_down(std::int64_t c, std::int64_t x0, int y) {
        add(c, row(y - 1)[x0 + c], -1);
        add(c, row(y - 1 + k_)[x0 + c], 1);
    }
    // Columns move down kAhead outputs before the window takes them (a vector load right after
    // the byte stores that moved its counts would wait for them), and the lines that output
    // x will touch are fetched kAhead outputs before: the moves' counts, and the fine bins of
    // the coarse bin at `first` of the entering and leaving columns, if the median stays in
    // it. With many distinct keys they are rarely cached (each column's counts span `levels`
    // bytes), and their addresses are known ahead.
    static constexpr std::int64_t kAhead = 8;
    void prefetch(std::int64_t x, std::int64_t columns, std::int64_t x0, int y,
                  std::int64_t first) const {
        const std::int64_t moving = x + k_ - 1 + kAhead;
        if (y > 0 && moving < columns) {
            __builtin_prefetch(fine(moving) + row(y - 1)[x0 + moving], 1);
            __builtin_prefetch(fine(moving) + row(y - 1 + k_)[x0 + moving], 1);
        }
        for (std::int64_t i = 0; i < fine_bins_; i += 64) {
            __builtin_prefetch(fine(x + k_ - 1) + first + i);
            __builtin_prefetch(fine(x - 1) + first + i);
        }
    }
    // to[i] += plus[i] - minus[i] for n counts (16-bit wrap-around: the sums are true counts).
    static void add_sub(std::uint16_t* __restrict to, const std::uint8_t* __restrict plus,
                        const std::uint8_t* __restrict minus, int n) {
        for (int i = 0; i < n; ++i) to[i] = static_cast<std::uint16_t>(to[i] + plus[i] - minus[i]);
    }
    static void add_to(std::uint16_t* __restrict to, const std::uint8_t* __restrict plus, int n) {
        for (int i = 0; i < n; ++i) to[i] = static_cast<std::uint16_t>(to[i] + plus[i]);
    }
    // The first bin i of counts[0, n) with below + counts[0] + ... + counts[i] > rank, adding
    // the counts before it to below: whole groups of 32 bins summed at once (vectorised; a
    // window's counts sum below 2^16, so 16-bit sums hold), then groups of 8 inside, then bins.
    int find(const std::uint16_t* counts, int n, std::uint32_t& below) const {
        int i = skip_groups<32>(counts, 0, n, below);
        i = skip_groups<8>(counts, i, n, below);
        while (below + counts[i] <= rank_) below += counts[i++];
        return i;
    }
    template <int kGroup>
    int skip_groups(const std::uint16_t* counts, int i, int n, std::uint32_t& below) const {
        for (; i + kGroup <= n; i += kGroup) {
            std::uint16_t sum = 0;
            for (int j = 0; j < kGroup; ++j) sum = static_cast<std::uint16_t>(sum + counts[i + j]);
            if (below + sum > rank_) break;
            below += sum;
        }
        return i;
    }

    // The medians of output row y of the strip at input column x0: windows over its columns
    // [x, x + k), each column moved down to row y kAhead outputs before the window takes it.
    template <class K>
    void strip_row(K* out, std::int64_t outputs, std::int64_t x0, int y) {
        const std::int64_t columns = outputs + k_ - 1;
        std::int64_t moved = y > 0 ? 0 : columns;  // columns [0, moved) are at row y
        auto move_before = [&](std::int64_t end) {
            for (end = std::min(end, columns); moved < end; ++moved) move_down(moved, x0, y);
        };
        move_before(k_ + kAhead);
        std::uint16_t* wc = window_coarse_.data();
        std::fill(window_coarse_.begin(), window_coarse_.end(), 0);
        for (int c = 0; c < k_; ++c) add_to(wc, coarse(c), coarse_bins_);
        std::fill(at_.begin(), at_.end(), -1);  // window_fine_'s bins as of column at_[bin]
        for (std::int64_t x = 0; x < outputs; ++x) {
            if (x > 0) {
                move_before(x + k_ + kAhead);
                add_sub(wc, coarse(x + k_ - 1), coarse(x - 1), coarse_bins_);
            }
            std::uint32_t below = 0;
            const int bin = find(wc, coarse_bins_, below);
            const std::int64_t first = static_cast<std::int64_t>(bin) << shift_;
            if (x + kAhead < outputs) prefetch(x + kAhead, columns, x0, y, first);
            std::uint16_t* f = window_fine_.data() + first;
            // Bring the bin's fine counts up to date: afresh from the window's k columns, or
            // by 2 columns a step since it last was, whichever costs less.
            if (at_[bin] < 0 || 2 * (x - at_[bin]) >= k_) {
                std::fill(f, f + fine_bins_, 0);
                for (int c = 0; c < k_; ++c) add_to(f, fine(x + c) + first, fine_bins_);
            } else {
                for (std::int64_t p = at_[bin] + 1; p <= x; ++p)
                    add_sub(f, fine(p + k_ - 1) + first, fine(p - 1) + first, fine_bins_);
            }
            at_[bin] = x;
            out[x] = static_cast<K>(ranked_.keys[first + find(f, fine_bins_, below)]);
        }
    }

    const RankedKeys& ranked_;
    std::int64_t in_width_, width_;
    int rows_, k_;
    std::uint32_t rank_;
    int shift_, fine_bins_, coarse_bins_;
    std::int64_t padded_levels_, strip_;
    std::uint8_t* fine_ = nullptr;    // column c's count of rank v at fine(c)[v]
    std::uint8_t* coarse_ = nullptr;  // column c's coarse bins
    std::vector<std::uint16_t> window_fine_, window_coarse_;
    std::vector<std::int64_t> at_;
};

// Huang's sliding histogram for squares over ranks, kGroupRows output rows at once: the rows
// that all their windows share are counted once (histogram 0), and each output row keeps the
// rest of its window (k x (kGroupRows - 1) keys) apart, so a step right moves about
// 2 k / kGroupRows + 2 (kGroupRows - 1) keys a pixel where Huang's moves 2 k. The counts are
// 16-bit (windows to 255 x 255) on two levels (coarse bins of 2^shift ranks). Every histogram
// also counts its keys below one coarse bin t shared by the group, so a median is walked from
// t (moved to the middle row's median after each step) and found in its coarse bin by sums of
// 16 fine bins from the nearer end. On many distinct keys the fine counts live in L2, and the
// cost is the number of keys moved: on full-range noise the group runs 1.6x (k = 21) to 2.2x
// (k = 65) Huang's speed.
class RowGroupHistogram {
public:
    // More rows save more shared keys but add each row's own and its histogram; 4 was the
    // fastest from k = 21 to 65 (docs/notebook/tuning-figures-from-comments.md).
    static constexpr int kGroupRows = 4;

    // Ranks in [0, levels), levels <= 2^16; `counts` is left zero as it is found.
    RowGroupHistogram(std::uint32_t levels, int k, std::vector<std::uint16_t>& counts)
        : shift_(sqrt_shift(levels)), k_(k),
          rank_(static_cast<std::uint32_t>(k) * static_cast<std::uint32_t>(k) / 2) {
        // Each histogram: its fine counts over whole coarse bins, then its coarse counts.
        const std::size_t coarse_bins = ((levels - 1) >> shift_) + 1, fine_size = coarse_bins << shift_;
        const std::size_t stride = fine_size + coarse_bins + 1;
        if (counts.size() < stride * (kGroupRows + 1)) counts.resize(stride * (kGroupRows + 1), 0);
        for (int h = 0; h <= kGroupRows; ++h) {
            fine_[h] = counts.data() + h * stride;
            coarse_[h] = fine_[h] + fine_size;
        }
    }

    // The medians of `rows` output rows of `width` pixels; rank row r (input row r of the
    // block) at ranks[r * in_width].
    template <class K>
    void run(const RankedKeys& ranked, std::int64_t in_width, std::int64_t width, int rows, K* out,
             std::int64_t out_stride) {
        const std::uint32_t* ranks = ranked.ranks.data();
        for (int y = 0; y < rows; y += kGroupRows) {
            const int n = std::min(kGroupRows, rows - y);
            // Histogram 0: input rows [y + n - 1, y + k); 1 + i: output row y + i's others,
            // rows [y + i, y + n - 1) above and [y + k, y + k + i) below.
            RowSpans spans{};
            spans.first[0] = y + n - 1;
            spans.last[0] = y + k_;
            for (int i = 0; i < n; ++i) {
                spans.first[1 + i] = y + i;
                spans.last[1 + i] = y + n - 1;
                spans.below_first[1 + i] = y + k_;
                spans.below_last[1 + i] = y + k_ + i;
            }
            t_ = 0;
            below_.fill(0);
            whole_window(ranks, in_width, spans, n, 0, 1);
            for (std::int64_t x = 0; x < width; ++x) {
                if (x > 0) step(ranks, in_width, spans, n, x);
                std::uint32_t middle = 0;
                for (int i = 0; i < n; ++i) {
                    const std::uint32_t r = select(1 + i);
                    out[(y + i) * out_stride + x] = static_cast<K>(ranked.keys[r]);
                    if (i == n / 2) middle = r;
                }
                move_to(middle >> shift_, n);
            }
            whole_window(ranks, in_width, spans, n, width - 1, -1);
        }
    }

private:
    // Input rows [first, last) and [below_first, below_last) of each histogram.
    struct RowSpans {
        std::array<int, kGroupRows + 1> first, last, below_first, below_last;
    };

    template <class F>
    static void each_row(const RowSpans& s, int h, F&& f) {
        for (int r = s.first[h]; r < s.last[h]; ++r) f(r);
        for (int r = s.below_first[h]; r < s.below_last[h]; ++r) f(r);
    }

    // Adds (by = 1) or removes (by = -1) every key of the windows at output column x.
    void whole_window(const std::uint32_t* ranks, std::int64_t in_width, const RowSpans& s, int n,
                      std::int64_t x, int by) {
        for (int h = 0; h <= n; ++h) {
            std::uint16_t* fine = fine_[h];
            std::uint16_t* coarse = coarse_[h];
            std::uint32_t below = below_[h];
            each_row(s, h, [&](int r) {
                const std::uint32_t* row = ranks + r * in_width + x;
                for (int p = 0; p < k_; ++p) {
                    const std::uint32_t v = row[p];
                    fine[v] = static_cast<std::uint16_t>(fine[v] + by);
                    coarse[v >> shift_] = static_cast<std::uint16_t>(coarse[v >> shift_] + by);
                    below += static_cast<std::uint32_t>(by) * ((v >> shift_) < t_);
                }
            });
            below_[h] = below;
        }
    }

    // The windows move from output column x - 1 to x.
    void step(const std::uint32_t* ranks, std::int64_t in_width, const RowSpans& s, int n, std::int64_t x) {
        const std::uint32_t t = t_;
        const int shift = shift_;
        for (int h = 0; h <= n; ++h) {
            std::uint16_t* __restrict fine = fine_[h];
            std::uint16_t* __restrict coarse = coarse_[h];
            std::uint32_t below = below_[h];
            each_row(s, h, [&](int r) {
                const std::uint32_t* row = ranks + r * in_width + x;
                const std::uint32_t a = row[-1], b = row[k_ - 1];
                --fine[a];
                --coarse[a >> shift];
                below -= (a >> shift) < t;
                ++fine[b];
                ++coarse[b >> shift];
                below += (b >> shift) < t;
            });
            below_[h] = below;
        }
    }

    // The median of histogram 0 with histogram h: the coarse bin walked from t, then the rank in
    // it by sums of 16 fine bins from the nearer end.
    std::uint32_t select(int h) const {
        const std::uint16_t *c0 = coarse_[0], *ch = coarse_[h];
        std::uint32_t bin = t_, below = below_[0] + below_[h];
        while (below > rank_) {
            --bin;
            below -= c0[bin] + ch[bin];
        }
        while (below + c0[bin] + ch[bin] <= rank_) {
            below += c0[bin] + ch[bin];
            ++bin;
        }
        const std::uint32_t first = bin << shift_, in_bin = c0[bin] + ch[bin], need = rank_ - below;
        const std::uint16_t *f0 = fine_[0] + first, *fh = fine_[h] + first;
        std::uint32_t passed = 0;
        if (need < in_bin / 2) {
            std::uint32_t m = 0;
            for (std::uint32_t s; passed + (s = sum16(f0 + m, fh + m)) <= need; m += 16) passed += s;
            while (passed + f0[m] + fh[m] <= need) {
                passed += f0[m] + fh[m];
                ++m;
            }
            return first + m;
        }
        const std::uint32_t above = in_bin - 1 - need;  // keys of the bin above the median
        std::uint32_t m = 1u << shift_;
        for (std::uint32_t s; passed + (s = sum16(f0 + m - 16, fh + m - 16)) <= above; m -= 16) passed += s;
        while (passed + f0[m - 1] + fh[m - 1] <= above) {
            --m;
            passed += f0[m] + fh[m];
        }
        return first + m - 1;
    }

    // The counts of 16 bins of two histograms (a window's: below 2^16 in all).
    static std::uint32_t sum16(const std::uint16_t* __restrict a, const std::uint16_t* __restrict b) {
        std::uint16_t s[8];
        for (int j = 0; j < 8; ++j) s[j] = static_cast<std::uint16_t>(a[j] + a[j + 8] + b[j] + b[j + 8]);
        std::uint32_t sum = 0;
        for (int j = 0; j < 8; ++j) sum += s[j];
        return sum;
    }

    // Moves the shared bin t to `bin`, keeping every histogram's count of keys below it.
    void move_to(std::uint32_t bin, int n) {
        for (; t_ < bin; ++t_)
            for (int h = 0; h <= n; ++h) below_[h] += coarse_[h][t_];
        while (t_ > bin) {
            --t_;
            for (int h = 0; h <= n; ++h) below_[h] -= coarse_[h][t_];
        }
    }

    int shift_, k_;
    std::uint32_t rank_;
    std::array<std::uint16_t*, kGroupRows + 1> fine_{}, coarse_{};
    std::uint32_t t_ = 0;
    std::array<std::uint32_t, kGroupRows + 1> below_{};
};

// Squares whose window counts fit the 16-bit bins (to 255 x 255).
bool constant_time(const Footprint& fp) { return fp.square() && fp.count <= 65535; }

// Output rows per block: 64 for Huang's histograms (the float path ranks each block's keys at
// once); 256 for the constant-time u8 squares, which set up their column histograms per block; 4 x
// k between the two for the constant-time squares over ranks, whose blocks also number their
// distinct keys: taller blocks hold more of them (figures:
// docs/notebook/tuning-figures-from-comments.md).
constexpr int kBlockRows = 64;
constexpr int kConstantTimeBlockRows = 256;

// Distinct keys per unit of k up to which a block of a square takes the constant-time median over
// ranks (and never past 2^16), else Huang's. The column histograms' cache misses grow with the
// distinct keys (each column's counts span that many bytes); Huang's work grows with k. So the
// constant-time median wins on few distinct keys at every k and on many only at large k; the
// crossover measured on the build machine by data and k is in
// docs/notebook/tuning-figures-from-comments.md.
constexpr std::uint32_t kConstantTimeLevelsPerK = 512;
constexpr std::uint32_t kConstantTimeMaxLevels = 65536;
// Nor past this many bytes of column counts a thread: at k = 255 a block of 2^16 distinct keys
// would hold 21 MiB on every thread (at k = 129, 12.6 MiB).
constexpr std::int64_t kConstantTimeMaxCountsBytes = std::int64_t{16} << 20;

// Up to this many distinct keys in a block the other squares take RowGroupHistogram (its
// histograms, 2 bytes a key, stay within a core's L2 cache), above it Huang's.
constexpr std::uint32_t kRowGroupMaxLevels = 65536;

// Squares on blocks of more distinct keys than RowGroupHistogram counts (float noise): strips of
// output columns whose input holds at most kRowGroupMaxLevels keys, each ranked on its own,
// where such strips are at least as wide as the window (else the block keeps Huang's). The
// strips rank their overlap again, but their histograms stay in L2.
template <class K>
bool row_group_strips(const KeyBlock<K>& b, const Footprint& fp, HistogramScratch& s) {
    const int in_rows = b.rows + 2 * fp.radius_y, k = 2 * fp.radius_x + 1;
    const std::int64_t strip = kRowGroupMaxLevels / in_rows - 2 * fp.radius_x;
    if (strip < k) return false;
    std::vector<const K*> rows(static_cast<std::size_t>(in_rows));
    for (std::int64_t x0 = 0; x0 < b.width; x0 += strip) {
        const std::int64_t width = std::min(strip, b.width - x0), in_width = width + 2 * fp.radius_x;
        for (int r = 0; r < in_rows; ++r) rows[r] = b.in[r] + x0;
        rank_keys(rows.data(), in_width, in_rows, s.ranked);
        RowGroupHistogram(static_cast<std::uint32_t>(s.ranked.keys.size()), k, s.row_group)
            .run(s.ranked, in_width, width, b.rows, b.out + x0, b.out_stride);
    }
    return true;
}

// The median over the ranks of the block's keys.
template <class K>
void median_over_ranks(const KeyBlock<K>& b, const Footprint& fp, HistogramScratch& s) {
    const std::int64_t in_width = b.width + 2 * fp.radius_x;
    const int in_rows = b.rows + 2 * fp.radius_y;
    RankedKeys& ranked = s.ranked;
    rank_keys(b.in, in_width, in_rows, ranked);
    const auto levels = static_cast<std::uint32_t>(ranked.keys.size());
    const auto k = static_cast<std::uint32_t>(2 * fp.radius_x + 1);
    if (constant_time(fp) && levels <= std::min(kConstantTimeLevelsPerK * k, kConstantTimeMaxLevels) &&
        ConstantTimeRanks::least_counts_bytes(levels, fp.radius_x) <= kConstantTimeMaxCountsBytes) {
        ConstantTimeRanks(ranked, in_width, b.width, b.rows, fp, s.counts).run(b.out, b.out_stride);
        return;
    }
    if (constant_time(fp) && levels <= kRowGroupMaxLevels) {
        RowGroupHistogram(levels, static_cast<int>(k), s.row_group)
            .run(ranked, in_width, b.width, b.rows, b.out, b.out_stride);
        return;
    }
    if (constant_time(fp) && row_group_strips(b, fp, s)) return;
    std::vector<const std::uint32_t*> rank_rows(static_cast<std::size_t>(in_rows));
    for (int r = 0; r < in_rows; ++r) rank_rows[r] = ranked.ranks.data() + r * in_width;
    huang(rank_rows.data(), b.out, b.out_stride, b.width, b.rows, fp, levels, sqrt_shift(levels));
    for (int y = 0; y < b.rows; ++y)
        for (std::int64_t x = 0; x < b.width; ++x)
            b.out[y * b.out_stride + x] = static_cast<K>(ranked.keys[b.out[y * b.out_stride + x]]);
}

}  // namespace

template <class Out>
void sliding_histogram_row(const std::uint32_t* const* rows, Out* out, std::int64_t width,
                           const Footprint& fp, std::uint32_t levels, int shift) {
    huang(rows, out, 0, width, 1, fp, levels, shift);
}
template void sliding_histogram_row(const std::uint32_t* const*, std::uint8_t*, std::int64_t,
                                    const Footprint&, std::uint32_t, int);
template void sliding_histogram_row(const std::uint32_t* const*, std::uint16_t*, std::int64_t,
                                    const Footprint&, std::uint32_t, int);

void sliding_histogram_ranks(const std::uint32_t* const* rows, std::uint32_t* out, std::int64_t width,
                             const Footprint& fp, std::uint32_t levels) {
    huang(rows, out, 0, width, 1, fp, levels, sqrt_shift(levels));
}

template <class K>
int histogram_block_rows(const Footprint& fp) {
    if (!constant_time(fp)) return kBlockRows;
    if (std::is_same_v<K, std::uint8_t>) return kConstantTimeBlockRows;
    return std::clamp(4 * (2 * fp.radius_y + 1), kBlockRows, kConstantTimeBlockRows);
}
template int histogram_block_rows<std::uint8_t>(const Footprint&);
template int histogram_block_rows<std::uint16_t>(const Footprint&);
template int histogram_block_rows<std::uint32_t>(const Footprint&);

template <>
void histogram_median(const KeyBlock<std::uint8_t>& b, const Footprint& fp, HistogramScratch&) {
    if (constant_time(fp)) ConstantTimeU8(b, fp).run();
    else huang(b.in, b.out, b.out_stride, b.width, b.rows, fp, 256, 4);
}

template <>
void histogram_median(const KeyBlock<std::uint16_t>& b, const Footprint& fp, HistogramScratch& s) {
    if (constant_time(fp)) median_over_ranks(b, fp, s);
    else huang(b.in, b.out, b.out_stride, b.width, b.rows, fp, 65536, 8);
}

template <>
void histogram_median(const KeyBlock<std::uint32_t>& b, const Footprint& fp, HistogramScratch& s) {
    median_over_ranks(b, fp, s);
}

}  // namespace fastmedian::detail
