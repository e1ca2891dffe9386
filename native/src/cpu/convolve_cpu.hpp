// The fast CPU convolution: the backend convolve runs on the CPU. Bands of output rows run on
// all cores; within a row, eight outputs per AVX2 register (FMA), the same fused
// multiply-adds in the same order as the reference (portable kernels: std::fma one pixel at a
// time). Generic masks read input rows converted to float and extended by the border mode;
// separable masks run the column pass into a float row (extended by the border mode, as the
// reference's intermediate is) and the row pass over it. Same bits as convolve_reference.
#pragma once

#include "fastmedian/image.hpp"
#include "semantics/convolve_plan.hpp"

namespace fastmedian::detail {

// Expects validated views (dst of plan's output type) and a plan made for src.type.
void convolve_cpu(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                  Border border);

}  // namespace fastmedian::detail
