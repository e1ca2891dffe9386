// A validated convolution request in the form every backend runs: the masks flipped into
// correlation order, normalised where asked, as floats; and the constant border's value.
#pragma once

#include <vector>

#include "fastmedian/convolve.hpp"

namespace fastmedian::detail {

struct ConvolvePlan {
    bool separable = false;
    int kw = 1;  // generic: the mask's width; separable: the row mask's length
    int kh = 1;  // generic: the mask's height; separable: the column mask's length
    // Generic: kh rows of kw; weights[m * kw + n] multiplies in(x - kw/2 + n, y - kh/2 + m).
    std::vector<float> weights;
    // Separable: row[n] multiplies t(x - kw/2 + n, y), column[m] multiplies in(x, y - kh/2 + m).
    std::vector<float> row;
    std::vector<float> column;
    // What Border::constant reads outside the image: cval rounded and clamped to the pixel
    // type (constant_value), as a float.
    float outside = 0.0f;
};

// Expects options validated against an image of `type` (validate_convolve).
ConvolvePlan make_convolve_plan(const ConvolveOptions& options, PixelType type);

// The sum of `values` in double, for normalisation and its checks.
double mask_sum(const std::vector<float>& values);

}  // namespace fastmedian::detail
