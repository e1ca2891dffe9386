// The 3x3 median, built to run near the memory limit: each lane streams down its columns (two
// packed as 16-bit halves for u8 and u16, one 32-bit key for f32), sorts the column triples
// once (the middle pair shared by two output rows), and takes each median as med3(max of lows,
// med3 of middles, min of highs) over its own and its neighbours' triples, exchanged by warp
// shuffles. No shared memory, no block barrier.
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
