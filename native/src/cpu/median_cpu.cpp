#include "cpu/median_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "semantics/constant_value.hpp"
#include "cpu/border_table.hpp"
#include "cpu/key_of.hpp"
#include "cpu/histogram_median.hpp"
#include "cpu/key_block.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/parallel.hpp"
#include "cpu/key_rows.hpp"
#include "support/stream_copy.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

// Output rows per block for the networks: few, so that their rows stay in the L1/L2 cache
// (the histograms say their own: histogram_block_rows).
constexpr int kNetworkBlockRows = 8;
// Below this many pixels a call runs on the caller's thread alone.
constexpr std::int64_t kMinPixelsForThreads = 1 << 14;


template <class T>
class PlaneFilter {
public:
    using K = typename KeyOf<T>::type;

    // dst: the box of src's output at `origin` (all of it by default).
    PlaneFilter(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                Border border, double cval, const Origin& origin)
        : src_(src), dst_(dst), fp_(fp), origin_(origin), width_(dst.width),
          xs_(border_table(src.width, fp.radius_x, border, origin.x, dst.width)),
          ys_(border_table(src.height, fp.radius_y, border, origin.y, dst.height)),
          outside_(static_cast<K>(OrderKey<T>::to_key(constant_value<T>(cval)))),
          network_(has_network(fp)), avx2_(use_avx2_kernels()), avx512_(use_avx512_kernels()),
          in_keys_(dst.width + 2 * fp.radius_x + kRowSlackKeys),
          out_stride_(dst.width + kRowSlackKeys),
          stream_out_(dst.width * dst.height * dst.planes * static_cast<std::int64_t>(sizeof(T)) >= kStreamOutBytes) {}

    // Filters rows [y0, y1) of plane z of dst, block by block. Padded rows live in a ring of
    // block + 2 * radius_y slots, so each source row is padded once per band.
    void run(std::int64_t z, std::int64_t y0, std::int64_t y1) const {
        const int block_rows = network_ ? kNetworkBlockRows : histogram_block_rows<K>(fp_);
        const std::int64_t slots = block_rows + 2 * fp_.radius_y;
        std::vector<K> ring(static_cast<std::size_t>(slots * in_keys_));
        std::vector<const K*> in(static_cast<std::size_t>(slots));
        std::vector<K> out(static_cast<std::size_t>(block_rows * out_stride_));
        std::vector<K> scratch(network_ ? network_scratch_keys(in_keys_) : 0);
        HistogramScratch histogram_scratch;
        std::vector<const char*> ahead(static_cast<std::size_t>(block_rows));
        std::vector<K*> direct(static_cast<std::size_t>(block_rows));
        const std::int64_t band_padded_rows = (y1 - y0) + 2 * fp_.radius_y;
        // Padded row i (source row i - radius_y, relative to y0) lives in slot i % slots.
        auto slot = [&](std::int64_t i) { return ring.data() + (i % slots) * in_keys_; };
        std::int64_t padded = 0;
        for (std::int64_t y = y0; y < y1; y += block_rows) {
            const int rows = static_cast<int>(std::min<std::int64_t>(block_rows, y1 - y));
            const std::int64_t first = y - y0, end = first + rows + 2 * fp_.radius_y;
            for (; padded < end; ++padded) pad_row(z, ys_[y0 + padded], slot(padded));
            for (std::int64_t i = first; i < end; ++i) in[i - first] = slot(i);
            KeyBlock<K> block{in.data(), in_keys_, out.data(), out_stride_, width_, rows};
            // Columns [begin, direct_end) go straight to dst; the rest through `out`.
            const auto [begin, direct_end] = network_ ? direct_columns(z, y) : no_direct();
            if (!network_) {
                histogram_median(block, fp_, histogram_scratch);
            } else {
                // The next block pads the rows after this one's: one per output row here.
                for (int r = 0; r < rows; ++r) {
                    const std::int64_t i = end + r;
                    const std::int64_t sy = i < band_padded_rows ? ys_[y0 + i] : -1;
                    ahead[r] = sy < 0 ? nullptr : reinterpret_cast<const char*>(source_row(z, sy));
                }
                block.ahead = ahead.data();
                block.ahead_bytes = width_ * static_cast<std::int64_t>(sizeof(T));
                if (begin < direct_end) {
                    for (int r = 0; r < rows; ++r) direct[r] = reinterpret_cast<K*>(row_out(z, y + r));
                    block.direct = direct.data();
                    block.direct_begin = begin;
                    block.direct_end = direct_end;
                    block.stream = stream_out_;
                }
                if (avx512_) network_median_avx512(block, fp_, scratch.data());
                else if (avx2_) network_median_avx2(block, fp_, scratch.data());
                else network_median_portable(block, fp_, scratch.data());
            }
            for (int r = 0; r < rows; ++r) {
                K* keys = out.data() + r * out_stride_;
                from_keys(keys, row_out(z, y + r), 0, begin);
                from_keys(keys, row_out(z, y + r), direct_end, width_);
            }
        }
        if (stream_out_) stream_fence();  // once a band, not a row (keys_to_pixels)
    }

private:
    void to_keys(const T* pixels, K* keys) const {
        if constexpr (std::is_same_v<T, K>) std::memcpy(keys, pixels, width_ * sizeof(K));
        else if (avx2_) float_to_keys_avx2(pixels, width_, keys);
        else float_to_keys_portable(pixels, width_, keys);
    }
    T* row_out(std::int64_t z, std::int64_t y) const { return reinterpret_cast<T*>(dst_.row(z, y)); }
    // Row sy of the source plane of dst's plane z, from the column of dst's first.
    const T* source_row(std::int64_t z, std::int64_t sy) const {
        return reinterpret_cast<const T*>(src_.row(z + origin_.plane, sy)) + origin_.x;
    }

    std::pair<std::int64_t, std::int64_t> no_direct() const { return {width_, width_}; }

    // The columns [begin, end) of the block at row y of plane z that the network kernel writes
    // straight to dst: whole vectors from the first vector-aligned address of its rows, which
    // must all be as far from one (else none go straight).
    std::pair<std::int64_t, std::int64_t> direct_columns(std::int64_t z, std::int64_t y) const {
        const std::int64_t vector_bytes = avx512_ ? 64 : avx2_ ? 32 : sizeof(K);
        const auto address = reinterpret_cast<std::uintptr_t>(row_out(z, y));
        if (dst_.row_stride % vector_bytes != 0 || address % sizeof(T) != 0) return no_direct();
        const auto begin = static_cast<std::int64_t>(
            (vector_bytes - address % vector_bytes) % vector_bytes / sizeof(T));
        const std::int64_t lanes = vector_bytes / sizeof(K);
        if (width_ - begin < lanes) return no_direct();
        return {begin, begin + (width_ - begin) / lanes * lanes};
    }

    // Writes columns [x0, x1) of a row of output keys as pixels; the keys may be overwritten.
    void from_keys(K* keys, T* pixels, std::int64_t x0, std::int64_t x1) const {
        if (x1 > x0) keys_to_pixels(keys + x0, pixels + x0, x1 - x0, avx2_, stream_out_);
    }

    // Keys of source row sy (-1: the constant) under dst's columns, extended by radius_x on both
    // sides.
    void pad_row(std::int64_t z, std::int64_t sy, K* keys) const {
        const std::int64_t w = width_, rx = fp_.radius_x;
        if (sy < 0) {
            std::fill(keys, keys + w + 2 * rx, outside_);
            return;
        }
        const T* s = reinterpret_cast<const T*>(src_.row(z + origin_.plane, sy));
        auto key = [&](std::int64_t sx) { return sx < 0 ? outside_ : static_cast<K>(OrderKey<T>::to_key(s[sx])); };
        for (std::int64_t p = 0; p < rx; ++p) keys[p] = key(xs_[p]);
        to_keys(s + origin_.x, keys + rx);
        for (std::int64_t p = rx + w; p < w + 2 * rx; ++p) keys[p] = key(xs_[p]);
    }

    const ConstImageView& src_;
    const ImageView& dst_;
    const Footprint& fp_;
    Origin origin_;
    std::int64_t width_;  // dst's
    std::vector<std::int64_t> xs_, ys_;
    K outside_;
    bool network_, avx2_, avx512_;
    std::int64_t in_keys_, out_stride_;
    bool stream_out_;  // the output goes to memory with streaming stores (keys_to_pixels)
};

template <class T>
void filter(const ConstImageView& src, const ImageView& dst, const Footprint& fp, Border border,
            double cval, const Origin& origin) {
    const PlaneFilter<T> plane_filter(src, dst, fp, border, cval, origin);
    const int threads =
        dst.width * dst.height * dst.planes < kMinPixelsForThreads ? 1 : cpu_threads();
    // About two bands per thread, so that uneven bands (data-dependent speed) even out.
    const std::int64_t bands = std::clamp<std::int64_t>((2 * threads + dst.planes - 1) / dst.planes,
                                                        1, (dst.height + 15) / 16);
    parallel_for(dst.planes * bands, threads, [&](std::int64_t i) {
        const std::int64_t z = i / bands, b = i % bands;
        plane_filter.run(z, dst.height * b / bands, dst.height * (b + 1) / bands);
    });
}

}  // namespace

void median2d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                  Border border, double cval, const Origin& origin) {
    switch (src.type) {
        case PixelType::u8: filter<std::uint8_t>(src, dst, fp, border, cval, origin); break;
        case PixelType::u16: filter<std::uint16_t>(src, dst, fp, border, cval, origin); break;
        case PixelType::f32: filter<float>(src, dst, fp, border, cval, origin); break;
    }
}

}  // namespace fastmedian::detail
