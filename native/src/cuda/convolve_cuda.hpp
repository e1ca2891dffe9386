// The CUDA convolution's host side, as the dispatcher sees it: no CUDA types cross this header.
#pragma once

#include <vector>

#include "fastmedian/image.hpp"
#include "semantics/convolve_plan.hpp"

namespace fastmedian::detail {

// Expects validated views and existing, distinct devices; throws Error(device_error) on
// failure. Views in Memory::cuda are filtered in place on the first device, on `cuda_stream`
// (a cudaStream_t; nullptr waits for the result); host views go through the GPUs plane by plane.
void convolve_cuda(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                   Border border, const std::vector<int>& devices, void* cuda_stream);

}  // namespace fastmedian::detail
