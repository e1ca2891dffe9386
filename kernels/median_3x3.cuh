// The 3x3 median, built to run at the memory limit: each thread computes an 8 x 4 block of
// outputs from a tile staged in shared memory (border rule applied once per row and column),
// sorts each column's triples once, sharing the middle pair between two output rows, and
// takes each median as med3(max of lows, med3 of middles, min of highs).
#pragma once

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

// Whether the kernel's grid covers planes of this height.
bool median_3x3_fits(int height);

cudaError_t launch_median_3x3_u8(const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_3x3_u16(const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_3x3_f32(const PlanesArgs& planes, cudaStream_t stream);

}  // namespace fastmedian::kernels
