#include "semantics/convolve_plan.hpp"

#include <algorithm>
#include <cstdint>

#include "semantics/constant_value.hpp"

namespace fastmedian::detail {

namespace {

// The values reversed (the flip of true convolution) and, when asked, divided by their sum in
// double before rounding to float.
std::vector<float> flipped(const std::vector<float>& values, bool normalize) {
    std::vector<float> out(values.rbegin(), values.rend());
    if (normalize) {
        const double sum = mask_sum(values);
        for (float& w : out) w = static_cast<float>(static_cast<double>(w) / sum);
    }
    return out;
}

float outside_value(PixelType type, double cval) {
    switch (type) {
        case PixelType::u8: return static_cast<float>(constant_value<std::uint8_t>(cval));
        case PixelType::u16: return static_cast<float>(constant_value<std::uint16_t>(cval));
        case PixelType::f32: return constant_value<float>(cval);
    }
    return 0.0f;
}

}  // namespace

double mask_sum(const std::vector<float>& values) {
    double sum = 0.0;
    for (float w : values) sum += static_cast<double>(w);
    return sum;
}

ConvolvePlan make_convolve_plan(const ConvolveOptions& o, PixelType type) {
    ConvolvePlan p;
    p.outside = o.border == Border::constant ? outside_value(type, o.cval) : 0.0f;
    if (!o.mask.empty()) {
        p.kw = o.mask_width;
        p.kh = o.mask_height;
        // A generic mask reversed as a whole is the 180-degree rotation: rows bottom to top,
        // each row right to left.
        p.weights = flipped(o.mask, o.normalize);
        return p;
    }
    p.separable = true;
    p.kw = static_cast<int>(o.row_mask.size());
    p.kh = static_cast<int>(o.column_mask.size());
    p.row = flipped(o.row_mask, o.normalize);
    p.column = flipped(o.column_mask, o.normalize);
    return p;
}

}  // namespace fastmedian::detail
