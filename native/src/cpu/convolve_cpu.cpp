#include "cpu/convolve_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cpu/border_table.hpp"
#include "cpu/convolve_rows.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/parallel.hpp"
#include "semantics/border_index.hpp"

namespace fastmedian::detail {

bool use_fma_convolve() {
#ifdef FASTMEDIAN_HAVE_AVX2_CONVOLVE
    return use_avx2_kernels() && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

#ifndef FASTMEDIAN_HAVE_AVX2_CONVOLVE
// Never called (use_fma_convolve() is false): the AVX2 build is not compiled on this target.
void correlate_rows_avx2(const float* const* r, int kh, const float* w, int kw, std::int64_t n,
                         float* out) {
    correlate_rows_portable(r, kh, w, kw, n, out);
}
template <class T>
void column_pass_avx2(const T* const* r, int kh, const float* w, std::int64_t n, float* out) {
    column_pass_portable(r, kh, w, n, out);
}
template <class Out>
void store_convolved_avx2(const float* v, std::int64_t n, Out* out) {
    store_convolved_portable(v, n, out);
}
#endif

namespace {

// Output rows per task, and below how many multiply-adds a call stays on one thread.
constexpr std::int64_t kGenericBand = 32;
constexpr std::int64_t kSeparableBand = 16;
constexpr std::int64_t kMinWorkForThreads = 1 << 22;

template <class T, class Out>
class ConvolveRun {
public:
    ConvolveRun(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan, Border border)
        : src_(src), dst_(dst), plan_(plan), border_(border), fma_(use_fma_convolve()),
          rx_(plan.kw / 2), ry_(plan.kh / 2), columns_(border_table(src.width, rx_, border)) {}

    void run() const {
        const std::int64_t band = plan_.separable ? kSeparableBand : kGenericBand;
        const std::int64_t bands = (src_.height + band - 1) / band;
        const std::int64_t taps = plan_.separable ? plan_.kw + plan_.kh : plan_.kw * plan_.kh;
        const std::int64_t work = src_.width * src_.height * src_.planes * taps;
        parallel_for(bands * src_.planes, work < kMinWorkForThreads ? 1 : cpu_threads(),
                     [&](std::int64_t i) {
                         const std::int64_t z = i / bands, y0 = (i % bands) * band;
                         const std::int64_t y1 = std::min(src_.height, y0 + band);
                         if (plan_.separable) separable_band(z, y0, y1);
                         else generic_band(z, y0, y1);
                     });
    }

private:
    // Row y of the plane as the border mode reads it, or nullptr for the constant.
    const T* source_row(std::int64_t z, std::int64_t y) const {
        const std::int64_t by = kernels::border_index(y, src_.height, static_cast<int>(border_));
        return by < 0 ? nullptr : reinterpret_cast<const T*>(src_.row(z, by));
    }

    // Given e[rx + x] for the image's columns x, fills the rx margins on both sides as the
    // border mode extends the row, with `outside` for the constant.
    // (The margins read columns inside the image only, so filling them in any order works.)
    void extend_margins(float* e, float outside) const {
        const std::int64_t right = rx_ + src_.width, n = right + rx_;
        for (std::int64_t c = 0; c < rx_; ++c) e[c] = columns_[c] < 0 ? outside : e[rx_ + columns_[c]];
        for (std::int64_t c = right; c < n; ++c) e[c] = columns_[c] < 0 ? outside : e[rx_ + columns_[c]];
    }

    void finish_row(std::int64_t z, std::int64_t y, const float* sums) const {
        Out* out = reinterpret_cast<Out*>(dst_.row(z, y));
        if (fma_) store_convolved_avx2(sums, src_.width, out);
        else store_convolved_portable(sums, src_.width, out);
    }

    void correlate(const float* const* rows, int kh, const float* w, int kw, float* out) const {
        if (fma_) correlate_rows_avx2(rows, kh, w, kw, src_.width, out);
        else correlate_rows_portable(rows, kh, w, kw, src_.width, out);
    }

    // Input rows y0 - ry .. y1 - 1 + ry as floats extended by rx on both sides, then the mask
    // over them, one output row at a time.
    void generic_band(std::int64_t z, std::int64_t y0, std::int64_t y1) const {
        const std::int64_t ext = src_.width + 2 * rx_, count = y1 - y0 + plan_.kh - 1;
        std::vector<float> rows(static_cast<std::size_t>(count * ext)), sums(static_cast<std::size_t>(src_.width));
        for (std::int64_t i = 0; i < count; ++i) {
            float* e = rows.data() + i * ext;
            const T* s = source_row(z, y0 - ry_ + i);
            if (s == nullptr) {
                std::fill(e, e + ext, plan_.outside);
                continue;
            }
            for (std::int64_t x = 0; x < src_.width; ++x) e[rx_ + x] = static_cast<float>(s[x]);
            extend_margins(e, plan_.outside);
        }
        std::vector<const float*> window(static_cast<std::size_t>(plan_.kh));
        for (std::int64_t y = y0; y < y1; ++y) {
            for (int m = 0; m < plan_.kh; ++m) window[m] = rows.data() + (y - y0 + m) * ext;
            correlate(window.data(), plan_.kh, plan_.weights.data(), plan_.kw, sums.data());
            finish_row(z, y, sums.data());
        }
    }

    // Per output row: the column pass into t (extended by rx as the reference's intermediate
    // is), then the row pass over t.
    void separable_band(std::int64_t z, std::int64_t y0, std::int64_t y1) const {
        const std::int64_t ext = src_.width + 2 * rx_;
        std::vector<float> t(static_cast<std::size_t>(ext)), sums(static_cast<std::size_t>(src_.width));
        std::vector<T> constant_row;
        float outside_column = 0.0f;  // the column pass over the constant alone
        if (border_ == Border::constant) {
            constant_row.assign(static_cast<std::size_t>(src_.width), static_cast<T>(plan_.outside));
            for (int m = 0; m < plan_.kh; ++m) outside_column = std::fma(plan_.column[m], plan_.outside, outside_column);
        }
        std::vector<const T*> window(static_cast<std::size_t>(plan_.kh));
        const float* row_pass[1] = {t.data()};
        for (std::int64_t y = y0; y < y1; ++y) {
            for (int m = 0; m < plan_.kh; ++m) {
                const T* s = source_row(z, y - ry_ + m);
                window[m] = s != nullptr ? s : constant_row.data();
            }
            if (fma_) column_pass_avx2(window.data(), plan_.kh, plan_.column.data(), src_.width, t.data() + rx_);
            else column_pass_portable(window.data(), plan_.kh, plan_.column.data(), src_.width, t.data() + rx_);
            extend_margins(t.data(), outside_column);
            correlate(row_pass, 1, plan_.row.data(), plan_.kw, sums.data());
            finish_row(z, y, sums.data());
        }
    }

    const ConstImageView& src_;
    const ImageView& dst_;
    const ConvolvePlan& plan_;
    Border border_;
    bool fma_;
    int rx_, ry_;
    std::vector<std::int64_t> columns_;  // border_table: the source column of t's column c
};

template <class T>
void run_type(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan, Border border) {
    if (dst.type == PixelType::f32) ConvolveRun<T, float>(src, dst, plan, border).run();
    else ConvolveRun<T, T>(src, dst, plan, border).run();
}

}  // namespace

void convolve_cpu(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                  Border border) {
    switch (src.type) {
        case PixelType::u8: run_type<std::uint8_t>(src, dst, plan, border); break;
        case PixelType::u16: run_type<std::uint16_t>(src, dst, plan, border); break;
        case PixelType::f32: run_type<float>(src, dst, plan, border); break;
    }
}

}  // namespace fastmedian::detail
