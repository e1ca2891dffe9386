#include "cpu/separable_median.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cpu/border_table.hpp"
#include "cpu/key_of.hpp"
#include "cpu/parallel.hpp"
#include "cpu/sliding_histogram.hpp"
#include "cpu/sorted_window.hpp"
#include "semantics/constant_value.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;


constexpr std::int64_t kColumnTile = 256;
// Below this many pixels x window a pass runs on the caller's thread alone.
constexpr std::int64_t kMinWorkForThreads = 1 << 20;

// One plane as dense keys, and the passes over it.
template <class T>
struct Plane {
    using K = typename KeyOf<T>::type;
    std::int64_t width, height;
    int radius;
    Border border;
    K outside;
    std::vector<K> keys, smooth;  // height x width each

    Plane(std::int64_t w, std::int64_t h, int r, Border b, double cval)
        : width(w), height(h), radius(r), border(b),
          outside(static_cast<K>(OrderKey<T>::to_key(constant_value<T>(cval)))),
          keys(static_cast<std::size_t>(w * h)), smooth(keys.size()) {}

    void load(const std::uint8_t* plane, std::int64_t row_stride) {
        for (std::int64_t y = 0; y < height; ++y) {
            const T* row = reinterpret_cast<const T*>(plane + y * row_stride);
            for (std::int64_t x = 0; x < width; ++x)
                keys[y * width + x] = static_cast<K>(OrderKey<T>::to_key(row[x]));
        }
    }

    void store(const std::uint8_t* src, std::int64_t src_stride, std::uint8_t* dst,
               std::int64_t dst_stride, const kernels::OutputMode& mode) const {
        for (std::int64_t y = 0; y < height; ++y) {
            const T* in = reinterpret_cast<const T*>(src + y * src_stride);
            T* out = reinterpret_cast<T*>(dst + y * dst_stride);
            for (std::int64_t x = 0; x < width; ++x)
                out[x] = kernels::median_output<T>(in[x], smooth[y * width + x], mode);
        }
    }

    int threads() const {
        return width * height * (2 * radius + 1) < kMinWorkForThreads ? 1 : cpu_threads();
    }
};

// Down the columns: keys -> smooth.
template <class T>
void columns_fast(Plane<T>& p) {
    using K = typename Plane<T>::K;
    const std::int64_t n = 2 * p.radius + 1;
    const std::vector<std::int64_t> ys = border_table(p.height, p.radius, p.border);
    const std::int64_t tiles = (p.width + kColumnTile - 1) / kColumnTile;
    parallel_for(tiles, p.threads(), [&](std::int64_t tile) {
        const std::int64_t x0 = tile * kColumnTile, w = std::min(kColumnTile, p.width - x0);
        auto key = [&](std::int64_t c, std::int64_t x) {  // padded row c, column x0 + x
            return ys[c] < 0 ? p.outside : p.keys[ys[c] * p.width + x0 + x];
        };
        std::vector<K> sorted(static_cast<std::size_t>(n * w));
        for (std::int64_t x = 0; x < w; ++x) {
            K* win = &sorted[x * n];
            for (std::int64_t c = 0; c < n; ++c) win[c] = key(c, x);
            std::sort(win, win + n);
        }
        for (std::int64_t y = 0; y < p.height; ++y) {
            for (std::int64_t x = 0; x < w; ++x) p.smooth[y * p.width + x0 + x] = sorted[x * n + p.radius];
            if (y + 1 == p.height) break;
            for (std::int64_t x = 0; x < w; ++x)
                sorted_window_replace(&sorted[x * n], n, key(y, x), key(y + n, x));
        }
    });
}

// Along the rows: smooth -> keys (the caller swaps them back).
template <class T>
void rows_fast(Plane<T>& p) {
    using K = typename Plane<T>::K;
    const std::int64_t n = 2 * p.radius + 1;
    const std::vector<std::int64_t> xs = border_table(p.width, p.radius, p.border);
    parallel_for(p.height, p.threads(), [&](std::int64_t y) {
        const K* row = &p.smooth[y * p.width];
        K* out = &p.keys[y * p.width];
        auto key = [&](std::int64_t c) { return xs[c] < 0 ? p.outside : row[xs[c]]; };
        std::vector<K> win(static_cast<std::size_t>(n));
        for (std::int64_t c = 0; c < n; ++c) win[c] = key(c);
        std::sort(win.begin(), win.end());
        for (std::int64_t x = 0; x < p.width; ++x) {
            out[x] = win[p.radius];
            if (x + 1 < p.width) sorted_window_replace(win.data(), n, key(x), key(x + n));
        }
    });
}

// 8-bit keys in windows from kHistogramFromWindow on: sliding histograms, whose step costs
// about the same whatever the window (sliding_histogram.hpp), where a sorted window's costs
// O(window). The columns go as rows of the transposed plane, so both passes read memory in
// order. Shorter windows on noisy data move the rank's bin far each step, and 16-bit keys far
// more: they keep the sorted windows, whose cost does not depend on the data. (Measured on 2
// cores, u8 and u16 stacks, smooth and full-range noise: the closing note of the session that
// added them.)
constexpr std::int64_t kHistogramFromWindow = 15;

// Rows per task, each task with a histogram of its own.
constexpr std::int64_t kHistogramRowsPerTask = 32;

// The 1D median along each of `rows` rows of `width` keys of `in` into `out`, the padded
// positions read through `xs` (border_table; -1 reads `outside`).
void histogram_rows(const std::uint8_t* in, std::uint8_t* out, std::int64_t rows,
                    std::int64_t width, const std::vector<std::int64_t>& xs, int radius,
                    std::uint8_t outside, int threads) {
    const std::int64_t n = 2 * radius + 1;
    const std::int64_t tasks = (rows + kHistogramRowsPerTask - 1) / kHistogramRowsPerTask;
    parallel_for(tasks, threads, [&](std::int64_t task) {
        SlidingHistogram window(radius);
        const std::int64_t y0 = task * kHistogramRowsPerTask;
        for (std::int64_t y = y0; y < std::min(rows, y0 + kHistogramRowsPerTask); ++y) {
            const std::uint8_t* row = in + y * width;
            std::uint8_t* median = out + y * width;
            auto key = [&](std::int64_t c) { return xs[c] < 0 ? outside : row[xs[c]]; };
            for (std::int64_t c = 0; c < n; ++c) window.add(key(c));
            for (std::int64_t x = 0; x < width; ++x) {
                median[x] = window.value();
                if (x + 1 == width) break;
                window.remove(key(x));
                window.add(key(x + n));
            }
            // Empty again for the next row, its rank's bin kept as the next walk's start.
            for (std::int64_t c = width - 1; c < width - 1 + n; ++c) window.remove(key(c));
        }
    });
}

// in (rows x cols) -> out (cols x rows), in tiles that stay in cache.
void transpose(const std::uint8_t* in, std::uint8_t* out, std::int64_t rows, std::int64_t cols,
               int threads) {
    constexpr std::int64_t kTile = 64;
    parallel_for((rows + kTile - 1) / kTile, threads, [&](std::int64_t band) {
        const std::int64_t y0 = band * kTile, y1 = std::min(rows, y0 + kTile);
        for (std::int64_t x0 = 0; x0 < cols; x0 += kTile)
            for (std::int64_t y = y0; y < y1; ++y)
                for (std::int64_t x = x0; x < std::min(cols, x0 + kTile); ++x)
                    out[x * rows + y] = in[y * cols + x];
    });
}

// Both passes: keys -> keys, through smooth (the caller swaps them, as after the sorted
// windows' passes).
void passes_histogram(Plane<std::uint8_t>& p) {
    const int threads = p.threads();
    // Down the columns: keys, transposed into smooth, filtered into keys, transposed back.
    transpose(p.keys.data(), p.smooth.data(), p.height, p.width, threads);
    histogram_rows(p.smooth.data(), p.keys.data(), p.width, p.height,
                   border_table(p.height, p.radius, p.border), p.radius, p.outside, threads);
    transpose(p.keys.data(), p.smooth.data(), p.width, p.height, threads);
    // Along the rows: smooth -> keys.
    histogram_rows(p.smooth.data(), p.keys.data(), p.height, p.width,
                   border_table(p.width, p.radius, p.border), p.radius, p.outside, threads);
}

template <class T>
bool uses_histogram(const Plane<T>& p) {
    return std::is_same_v<T, std::uint8_t> && 2 * p.radius + 1 >= kHistogramFromWindow;
}

// The references: every window copied out and nth_element'ed.
template <class T>
void columns_reference(Plane<T>& p) {
    using K = typename Plane<T>::K;
    const std::int64_t n = 2 * p.radius + 1;
    const std::vector<std::int64_t> ys = border_table(p.height, p.radius, p.border);
    std::vector<K> win(static_cast<std::size_t>(n));
    for (std::int64_t y = 0; y < p.height; ++y)
        for (std::int64_t x = 0; x < p.width; ++x) {
            for (std::int64_t i = 0; i < n; ++i)
                win[i] = ys[y + i] < 0 ? p.outside : p.keys[ys[y + i] * p.width + x];
            std::nth_element(win.begin(), win.begin() + p.radius, win.end());
            p.smooth[y * p.width + x] = win[p.radius];
        }
}

template <class T>
void rows_reference(Plane<T>& p) {
    using K = typename Plane<T>::K;
    const std::int64_t n = 2 * p.radius + 1;
    const std::vector<std::int64_t> xs = border_table(p.width, p.radius, p.border);
    std::vector<K> win(static_cast<std::size_t>(n));
    for (std::int64_t y = 0; y < p.height; ++y)
        for (std::int64_t x = 0; x < p.width; ++x) {
            for (std::int64_t i = 0; i < n; ++i)
                win[i] = xs[x + i] < 0 ? p.outside : p.smooth[y * p.width + xs[x + i]];
            std::nth_element(win.begin(), win.begin() + p.radius, win.end());
            p.keys[y * p.width + x] = win[p.radius];
        }
}

template <class T>
void run(const ConstImageView& src, const ImageView& dst, int radius, Border border, double cval,
         const kernels::OutputMode& mode, bool reference) {
    Plane<T> p(src.width, src.height, radius, border, cval);
    for (std::int64_t z = 0; z < src.planes; ++z) {
        p.load(src.plane(z), src.row_stride);
        if (reference) {
            columns_reference(p);
            rows_reference(p);
        } else if (uses_histogram(p)) {
            if constexpr (std::is_same_v<T, std::uint8_t>) passes_histogram(p);
        } else {
            columns_fast(p);
            rows_fast(p);
        }
        std::swap(p.keys, p.smooth);  // the row pass wrote its result into keys
        p.store(src.plane(z), src.row_stride, dst.plane(z), dst.row_stride, mode);
    }
}

template <class... Args>
void dispatch(PixelType type, bool reference, const ConstImageView& src, const ImageView& dst,
              Args... args) {
    switch (type) {
        case PixelType::u8: run<std::uint8_t>(src, dst, args..., reference); break;
        case PixelType::u16: run<std::uint16_t>(src, dst, args..., reference); break;
        case PixelType::f32: run<float>(src, dst, args..., reference); break;
    }
}

}  // namespace

void separable_median_cpu(const ConstImageView& src, const ImageView& dst, int radius,
                          Border border, double cval, const kernels::OutputMode& mode) {
    dispatch(src.type, false, src, dst, radius, border, cval, mode);
}

void separable_median_reference(const ConstImageView& src, const ImageView& dst, int radius,
                                Border border, double cval, const kernels::OutputMode& mode) {
    dispatch(src.type, true, src, dst, radius, border, cval, mode);
}

}  // namespace fastmedian::detail
