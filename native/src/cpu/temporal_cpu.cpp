#include "cpu/temporal_cpu.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cpu/isa_kernels.hpp"
#include "cpu/key_of.hpp"
#include "cpu/parallel.hpp"
#include "cpu/sorted_window.hpp"
#include "fastmedian/temporal.hpp"
#include "networks/generated/temporal_networks.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {


// Sorted windows: pixels per tile so that their windows take about this many bytes (L2).
constexpr std::int64_t kSortedTileBytes = 256 * 1024;
constexpr std::int64_t kNetworkTileWidth = 1024;
// Below this much work (pixels x frames x window) a call runs on the caller's thread alone.
constexpr std::int64_t kMinWorkForThreads = 1 << 22;

template <class T>
class TemporalFilter {
public:
    using K = typename KeyOf<T>::type;

    TemporalFilter(const ConstImageView& src, const ImageView& dst, int window,
                   const kernels::OutputMode& offset)
        : src_(src), dst_(dst), n_(window), offset_(offset), avx2_(use_avx2_kernels()) {}

    void run() {
        const bool network = n_ <= kernels::kMaxFrameNetwork;
        const std::int64_t tile = std::min<std::int64_t>(
            src_.width, network ? kNetworkTileWidth
                                : std::clamp<std::int64_t>(kSortedTileBytes / (n_ * sizeof(K)), 16, 4096));
        const std::int64_t per_row = (src_.width + tile - 1) / tile;
        const std::int64_t work = src_.width * src_.height * src_.planes * n_;
        parallel_for(per_row * src_.height, work < kMinWorkForThreads ? 1 : cpu_threads(),
                     [&](std::int64_t i) {
                         const std::int64_t y = i / per_row, x0 = (i % per_row) * tile;
                         const std::int64_t w = std::min(tile, src_.width - x0);
                         if (network) network_tile(y, x0, w);
                         else sorted_tile(y, x0, w);
                     });
    }

private:
    const T* in(std::int64_t f, std::int64_t y, std::int64_t x0) const {
        return reinterpret_cast<const T*>(src_.row(f, y)) + x0;
    }

    void to_keys(const T* pixels, std::int64_t n, K* keys) const {
        if constexpr (std::is_same_v<T, K>) std::memcpy(keys, pixels, n * sizeof(K));
        else if (avx2_) float_to_keys_avx2(pixels, n, keys);
        else float_to_keys_portable(pixels, n, keys);
    }

    void write(std::int64_t t, std::int64_t y, std::int64_t x0, std::int64_t w, const K* med) const {
        const T* frame = in(t, y, x0);
        T* out = reinterpret_cast<T*>(dst_.row(t, y)) + x0;
        for (std::int64_t x = 0; x < w; ++x) out[x] = kernels::median_output<T>(frame[x], med[x], offset_);
    }

    // The window's key rows in a ring (frame f in slot f % n): the network ignores their order.
    void network_tile(std::int64_t y, std::int64_t x0, std::int64_t w) const {
        std::vector<K> ring(static_cast<std::size_t>(n_ * w)), med(static_cast<std::size_t>(w));
        const K* rows[kernels::kMaxFrameNetwork];
        for (int i = 0; i < n_; ++i) {
            to_keys(in(i, y, x0), w, ring.data() + i * w);
            rows[i] = ring.data() + i * w;
        }
        std::int64_t start = 0;
        for (std::int64_t t = 0; t < src_.planes; ++t) {
            const std::int64_t s = temporal_window_start(t, src_.planes, n_);
            for (; start < s; ++start) {  // slides one frame at a time
                const std::int64_t f = start + n_;
                to_keys(in(f, y, x0), w, ring.data() + (f % n_) * w);
            }
            if (avx2_) frame_network_avx2(rows, n_, w, med.data());
            else frame_network_portable(rows, n_, w, med.data());
            write(t, y, x0, w, med.data());
        }
    }

    // Every pixel's window kept sorted: sliding by a frame removes the oldest key and inserts
    // the newest, moving only the keys between their two positions.
    void sorted_tile(std::int64_t y, std::int64_t x0, std::int64_t w) const {
        const std::int64_t n = n_;
        std::vector<K> sorted(static_cast<std::size_t>(n * w)), med(static_cast<std::size_t>(w));
        std::vector<K> old_keys(static_cast<std::size_t>(w)), new_keys(static_cast<std::size_t>(w));
        for (std::int64_t f = 0; f < n; ++f) {
            to_keys(in(f, y, x0), w, new_keys.data());
            for (std::int64_t x = 0; x < w; ++x) sorted[x * n + f] = new_keys[x];
        }
        for (std::int64_t x = 0; x < w; ++x) std::sort(&sorted[x * n], &sorted[x * n] + n);
        const std::int64_t rank = (n - 1) / 2;
        std::int64_t start = 0;
        for (std::int64_t t = 0; t < src_.planes; ++t) {
            const std::int64_t s = temporal_window_start(t, src_.planes, n_);
            for (; start < s; ++start) {
                to_keys(in(start, y, x0), w, old_keys.data());
                to_keys(in(start + n, y, x0), w, new_keys.data());
                for (std::int64_t x = 0; x < w; ++x) sorted_window_replace(&sorted[x * n], n, old_keys[x], new_keys[x]);
            }
            for (std::int64_t x = 0; x < w; ++x) med[x] = sorted[x * n + rank];
            write(t, y, x0, w, med.data());
        }
    }

    const ConstImageView& src_;
    const ImageView& dst_;
    int n_;
    kernels::OutputMode offset_;
    bool avx2_;
};

template <class T>
void stream_frame(const std::uint8_t* frames, std::int64_t frame_bytes, int count,
                  const std::uint8_t* newest, const ImageView& dst,
                  const kernels::OutputMode& offset) {
    using K = typename KeyOf<T>::type;
    const bool avx2 = use_avx2_kernels();
    const std::int64_t width = dst.width, row_bytes = width * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t work = width * dst.height * count;
    parallel_for(dst.height, work < kMinWorkForThreads ? 1 : cpu_threads(), [&](std::int64_t y) {
        std::vector<K> keys(static_cast<std::size_t>(count * width)), med(static_cast<std::size_t>(width));
        for (int i = 0; i < count; ++i) {
            const T* row = reinterpret_cast<const T*>(frames + i * frame_bytes + y * row_bytes);
            K* k = keys.data() + i * width;
            if constexpr (std::is_same_v<T, K>) std::memcpy(k, row, width * sizeof(K));
            else if (avx2) float_to_keys_avx2(row, width, k);
            else float_to_keys_portable(row, width, k);
        }
        if (count <= kernels::kMaxFrameNetwork) {
            const K* rows[kernels::kMaxFrameNetwork];
            for (int i = 0; i < count; ++i) rows[i] = keys.data() + i * width;
            if (avx2) frame_network_avx2(rows, count, width, med.data());
            else frame_network_portable(rows, count, width, med.data());
        } else {
            std::vector<K> column(static_cast<std::size_t>(count));
            const auto mid = column.begin() + (count - 1) / 2;
            for (std::int64_t x = 0; x < width; ++x) {
                for (int i = 0; i < count; ++i) column[i] = keys[i * width + x];
                std::nth_element(column.begin(), mid, column.end());
                med[x] = *mid;
            }
        }
        const T* frame = reinterpret_cast<const T*>(newest + y * row_bytes);
        T* out = reinterpret_cast<T*>(dst.row(0, y));
        for (std::int64_t x = 0; x < width; ++x) out[x] = kernels::median_output<T>(frame[x], med[x], offset);
    });
}

}  // namespace

void temporal_median_cpu(const ConstImageView& src, const ImageView& dst, int window,
                         const kernels::OutputMode& offset) {
    switch (src.type) {
        case PixelType::u8: TemporalFilter<std::uint8_t>(src, dst, window, offset).run(); break;
        case PixelType::u16: TemporalFilter<std::uint16_t>(src, dst, window, offset).run(); break;
        case PixelType::f32: TemporalFilter<float>(src, dst, window, offset).run(); break;
    }
}

void temporal_frame_cpu(const std::uint8_t* frames, std::int64_t frame_bytes, int count,
                        const std::uint8_t* newest, const ImageView& dst,
                        const kernels::OutputMode& offset) {
    switch (dst.type) {
        case PixelType::u8: stream_frame<std::uint8_t>(frames, frame_bytes, count, newest, dst, offset); break;
        case PixelType::u16: stream_frame<std::uint16_t>(frames, frame_bytes, count, newest, dst, offset); break;
        case PixelType::f32: stream_frame<float>(frames, frame_bytes, count, newest, dst, offset); break;
    }
}

}  // namespace fastmedian::detail
