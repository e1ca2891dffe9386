// ImageJ circles of radius 4 to 6 (57 to 121 pixels): each
// thread gathers its window's keys from a shared-memory tile (border resolved once per row and
// column) into registers and runs a generated, median-pruned selection network
// (generated/median_networks.cuh). u8 and u16 threads compute two horizontally adjacent outputs
// at once as packed u16x2 lanes.
#pragma once

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

// The network kernel's mask for a window given as rows of runs, on planes of this height, or
// -1 when it has none.
int median_network_mask(const int* half_width, int rows, int height);

cudaError_t launch_median_network_u8(int mask, const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_network_u16(int mask, const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_network_f32(int mask, const PlanesArgs& planes, cudaStream_t stream);

}  // namespace fastmedian::kernels
