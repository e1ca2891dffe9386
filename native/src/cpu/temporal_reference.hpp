// The temporal median by sorting every pixel's window: slow and simple, the reference that the
// fast backends are tested against bit for bit.
#pragma once

#include "fastmedian/image.hpp"
#include "semantics/median_output.hpp"

namespace fastmedian::detail {

void temporal_median_reference(const ConstImageView& src, const ImageView& dst, int window,
                               const kernels::OutputMode& offset);

}  // namespace fastmedian::detail
