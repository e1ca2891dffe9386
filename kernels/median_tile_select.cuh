// The median of any window (rows of runs) for windows up to kMaxRadius: each block stages its
// input tile, border included, in shared memory as order keys once; each thread then finds its
// outputs' medians by a 4-way radix search over the key range (3 thresholds per pass over the
// window: 4 passes for u8, 8 for u16, 16 for f32). Exact for every type, window and border.
#pragma once

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

// Whether the tile kernel serves a window of these radii on planes of this height.
bool tile_select_fits(int radius_x, int radius_y, int height);

cudaError_t launch_median_tile_select_u8(const PlanesArgs& planes, const RunsWindow& window,
                                         cudaStream_t stream);
cudaError_t launch_median_tile_select_u16(const PlanesArgs& planes, const RunsWindow& window,
                                          cudaStream_t stream);
cudaError_t launch_median_tile_select_f32(const PlanesArgs& planes, const RunsWindow& window,
                                          cudaStream_t stream);

}  // namespace fastmedian::kernels
