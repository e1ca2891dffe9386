#include "core/convolve_validate.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/validate.hpp"
#include "fastmedian/errors.hpp"
#include "semantics/convolve_plan.hpp"

namespace fastmedian::detail {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw Error(ErrorCode::invalid_argument, message);
}

template <class V>
std::string describe(const V& value) {
    std::ostringstream s;
    s << value;
    return s.str();
}

void check_finite(const std::vector<float>& values, const char* name) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            fail(std::string(name) + "[" + describe(i) + "] is " + describe(values[i]) +
                 "; mask values must be finite");
}

// With normalize, the sum must be nonzero and every value / sum a finite float.
void check_normalizable(const std::vector<float>& values, const char* name) {
    const double sum = mask_sum(values);
    if (sum == 0.0)
        fail(std::string("normalize needs a mask whose sum is not 0, but ") + name +
             " sums to 0");
    for (float w : values)
        if (std::fabs(static_cast<double>(w) / sum) > std::numeric_limits<float>::max())
            fail(std::string("normalize: ") + name + " divided by its sum (" + describe(sum) +
                 ") overflows float");
}

void check_length(const std::vector<float>& values, const char* name) {
    const auto n = values.size();
    if (n % 2 == 0 || n > static_cast<std::size_t>(ConvolveOptions::kMaxSeparableLength))
        fail(std::string(name) + " has " + describe(n) + " values; its length must be odd and in 1.." +
             describe(ConvolveOptions::kMaxSeparableLength));
}

std::uintptr_t end_of(const ConstImageView& v) {
    const std::int64_t row_bytes = v.width * static_cast<std::int64_t>(pixel_size(v.type));
    return reinterpret_cast<std::uintptr_t>(v.data) +
           static_cast<std::uintptr_t>((v.planes - 1) * v.plane_stride +
                                       (v.height - 1) * v.row_stride + row_bytes);
}

}  // namespace

void validate_convolve_options(const ConvolveOptions& o, PixelType type) {
    if (!o.mask.empty()) {
        if (!o.row_mask.empty() || !o.column_mask.empty())
            fail("give either mask (generic) or row_mask and column_mask (separable), not both");
        const int max = ConvolveOptions::kMaxMaskSize;
        if (o.mask_width < 1 || o.mask_width % 2 == 0 || o.mask_width > max)
            fail("mask_width must be odd and in 1.." + describe(max) + ", got " + describe(o.mask_width));
        if (o.mask_height < 1 || o.mask_height % 2 == 0 || o.mask_height > max)
            fail("mask_height must be odd and in 1.." + describe(max) + ", got " +
                 describe(o.mask_height));
        const std::int64_t n = std::int64_t{o.mask_width} * o.mask_height;
        if (static_cast<std::int64_t>(o.mask.size()) != n)
            fail("mask has " + describe(o.mask.size()) + " values but mask_width x mask_height is " +
                 describe(o.mask_width) + " x " + describe(o.mask_height) + " = " + describe(n));
        check_finite(o.mask, "mask");
        if (o.normalize) check_normalizable(o.mask, "mask");
    } else {
        if (o.mask_width != 0 || o.mask_height != 0)
            fail("mask is empty but mask_width x mask_height is " + describe(o.mask_width) + " x " +
                 describe(o.mask_height));
        if (o.row_mask.empty() && o.column_mask.empty())
            fail("mask is empty: give mask with mask_width and mask_height, or row_mask and column_mask");
        if (o.row_mask.empty()) fail("row_mask is empty; a separable mask needs row_mask and column_mask");
        if (o.column_mask.empty())
            fail("column_mask is empty; a separable mask needs row_mask and column_mask");
        check_length(o.row_mask, "row_mask");
        check_length(o.column_mask, "column_mask");
        check_finite(o.row_mask, "row_mask");
        check_finite(o.column_mask, "column_mask");
        if (o.normalize) {
            check_normalizable(o.row_mask, "row_mask");
            check_normalizable(o.column_mask, "column_mask");
        }
    }
    switch (o.border) {
        case Border::replicate: case Border::reflect: case Border::mirror:
        case Border::constant: case Border::wrap: break;
        default: fail("border is not one of replicate, reflect, mirror, constant, wrap");
    }
    if (o.border == Border::constant && type != PixelType::f32 && !std::isfinite(o.cval))
        fail("cval must be finite for integer images, got " + describe(o.cval));
    if (o.output != ConvolveOutput::same && o.output != ConvolveOutput::f32)
        fail("output is not one of same, f32");
}

void validate_convolve(const ConstImageView& src, const ImageView& dst, const ConvolveOptions& o) {
    validate_view(src, "src");
    const PixelType want = o.output == ConvolveOutput::f32 ? PixelType::f32 : src.type;
    if (dst.type != want)
        fail(std::string("dst.type (") + pixel_type_name(dst.type) + ") must be " +
             pixel_type_name(want) + (o.output == ConvolveOutput::f32
                                          ? " for output f32"
                                          : std::string(", src.type, for output same")));
    if (dst.width != src.width || dst.height != src.height || dst.planes != src.planes)
        fail("dst size " + describe(dst.width) + "x" + describe(dst.height) + "x" +
             describe(dst.planes) + " differs from src size " + describe(src.width) + "x" +
             describe(src.height) + "x" + describe(src.planes));
    validate_view(as_const(dst), "dst");
    const auto s0 = reinterpret_cast<std::uintptr_t>(src.data), s1 = end_of(src);
    const auto d0 = reinterpret_cast<std::uintptr_t>(dst.data), d1 = end_of(as_const(dst));
    if (s0 < d1 && d0 < s1) fail("dst overlaps src; filtering in place is not supported");
    if (dst.memory != src.memory) fail("dst.memory differs from src.memory");
    validate_convolve_options(o, src.type);
    validate_run(o.backend, o.device, o.cuda_stream, o.reference, src.memory);
    validate_devices(o.devices);
}

}  // namespace fastmedian::detail
