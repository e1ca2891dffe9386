// The 3D median of any window (rows of runs): one voxel per thread, found by a 4-way radix
// search over the key range (3 thresholds per pass over the window: 4 passes for u8, 8 for
// u16, 16 for f32), reading the window through the cache. Exact for every window and border;
// the generated tiled networks (median3d_tiled.cuh) are the fast path for the windows they serve.
#pragma once

#include <cuda_runtime_api.h>

#include "fastmedian/image.hpp"
#include "median3d_args.cuh"

namespace fastmedian::kernels {

// The grid covers planes [first_plane, first_plane + planes) of the output.
cudaError_t launch_median3d_select(PixelType type, const VolumeArgs& volume, int planes,
                                   const Runs3DWindow& window, cudaStream_t stream);

}  // namespace fastmedian::kernels
