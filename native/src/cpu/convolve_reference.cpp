#include "cpu/convolve_reference.hpp"

#include <cmath>
#include <cstdint>

#include "semantics/border_index.hpp"
#include "semantics/convolve_output.hpp"

namespace fastmedian::detail {

namespace {

template <class T, class Out>
class Reference {
public:
    Reference(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan, Border border)
        : src_(src), dst_(dst), plan_(plan), border_(static_cast<int>(border)) {}

    void run() const {
        for (std::int64_t z = 0; z < src_.planes; ++z)
            for (std::int64_t y = 0; y < src_.height; ++y)
                for (std::int64_t x = 0; x < src_.width; ++x) {
                    const float sum = plan_.separable ? separable(z, x, y) : generic(z, x, y);
                    reinterpret_cast<Out*>(dst_.row(z, y))[x] = kernels::ConvolveStore<Out>::convert(sum);
                }
    }

private:
    // The input at (x, y) of plane z as the border mode extends it.
    float in(std::int64_t z, std::int64_t x, std::int64_t y) const {
        const std::int64_t bx = kernels::border_index(x, src_.width, border_);
        const std::int64_t by = kernels::border_index(y, src_.height, border_);
        if (bx < 0 || by < 0) return plan_.outside;
        return static_cast<float>(reinterpret_cast<const T*>(src_.row(z, by))[bx]);
    }

    float generic(std::int64_t z, std::int64_t x, std::int64_t y) const {
        const int rx = plan_.kw / 2, ry = plan_.kh / 2;
        float sum = 0.0f;
        for (int m = 0; m < plan_.kh; ++m)
            for (int n = 0; n < plan_.kw; ++n)
                sum = std::fma(plan_.weights[m * plan_.kw + n], in(z, x - rx + n, y - ry + m), sum);
        return sum;
    }

    // The column pass at (x', y) for each x' the row pass reads, then the row pass.
    float separable(std::int64_t z, std::int64_t x, std::int64_t y) const {
        const int rx = plan_.kw / 2, ry = plan_.kh / 2;
        float sum = 0.0f;
        for (int n = 0; n < plan_.kw; ++n) {
            float t = 0.0f;
            for (int m = 0; m < plan_.kh; ++m) t = std::fma(plan_.column[m], in(z, x - rx + n, y - ry + m), t);
            sum = std::fma(plan_.row[n], t, sum);
        }
        return sum;
    }

    const ConstImageView& src_;
    const ImageView& dst_;
    const ConvolvePlan& plan_;
    int border_;
};

template <class T>
void run_type(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan, Border border) {
    if (dst.type == PixelType::f32) Reference<T, float>(src, dst, plan, border).run();
    else Reference<T, T>(src, dst, plan, border).run();
}

}  // namespace

void convolve_reference(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                        Border border) {
    switch (src.type) {
        case PixelType::u8: run_type<std::uint8_t>(src, dst, plan, border); break;
        case PixelType::u16: run_type<std::uint16_t>(src, dst, plan, border); break;
        case PixelType::f32: run_type<float>(src, dst, plan, border); break;
    }
}

}  // namespace fastmedian::detail
