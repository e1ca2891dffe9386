// The CUDA backend's host side, as the dispatcher sees it: no CUDA types cross this header.
#pragma once

#include <string>

#include "core/footprint.hpp"
#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// Expects validated arguments and an existing device; throws Error(device_error) on failure.
// `cuda_stream` (a cudaStream_t) applies to views in Memory::cuda: nullptr waits for the result.
void median2d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                   Border border, double cval, int device, void* cuda_stream);

}  // namespace fastmedian::detail
