// The convolution by plain loops, one output pixel at a time, every input read through the
// border mode: slow and simple, the reference the fast backends are tested against bit for bit.
#pragma once

#include "fastmedian/image.hpp"
#include "semantics/convolve_plan.hpp"

namespace fastmedian::detail {

// Expects validated views (dst of plan's output type) and a plan made for src.type.
void convolve_reference(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                        Border border);

}  // namespace fastmedian::detail
