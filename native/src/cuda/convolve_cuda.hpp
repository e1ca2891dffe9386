// The CUDA convolution's host side, as the dispatcher sees it: no CUDA types cross this header.
#pragma once

#include "core/convolve_plan.hpp"
#include "fastmedian/image.hpp"

namespace fastmedian::detail {

// Expects validated views and an existing device; throws Error(device_error) on failure.
// Views in Memory::cuda are filtered in place on `cuda_stream` (a cudaStream_t; nullptr waits
// for the result); host views go through the GPU one plane at a time.
void convolve_cuda(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                   Border border, int device, void* cuda_stream);

}  // namespace fastmedian::detail
