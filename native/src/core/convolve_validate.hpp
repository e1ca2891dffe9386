// Argument checks of convolve(): each failure throws Error(invalid_argument) with a message
// that names the parameter.
#pragma once

#include "fastmedian/convolve.hpp"

namespace fastmedian::detail {

// The masks, normalisation, border, cval and output type (for images of `type`).
void validate_convolve_options(const ConvolveOptions& options, PixelType type);
// src and dst (dst.type = src.type, or f32 for ConvolveOutput::f32), the options and the run.
void validate_convolve(const ConstImageView& src, const ImageView& dst, const ConvolveOptions& options);

}  // namespace fastmedian::detail
