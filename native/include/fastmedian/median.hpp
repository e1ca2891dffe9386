// Exact 2D median filter over every plane of a stack.
//
// Semantics (identical bits on every backend):
// - the output is the element of rank floor((n-1)/2) of the n window values (n is odd for the
//   square and circle windows offered here, so this is the middle value);
// - float values are ordered -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN: every NaN counts as
//   larger than +Inf, and a NaN result is written as the quiet NaN 0x7FC00000;
// - the circle of radius r is ImageJ's RankFilters mask (its "line radii").
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

// Filters `src` into `dst` (same type and memory, the same size, or a box of the output where
// options.origin is set; they may not overlap). Views in Memory::cuda run on the CUDA device
// options.device (backend auto or cuda). Throws Error for bad arguments (naming the parameter)
// and for backend failures; `dst` is then unspecified but `src` is never written.
RunInfo median2d(const ConstImageView& src, const ImageView& dst, const MedianOptions& options);

}  // namespace fastmedian
