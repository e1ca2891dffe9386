// Square windows of 5, 7 and 9: each thread gathers its window's keys from a shared-memory
// tile (border resolved once per row and column) into registers and runs a generated,
// median-pruned selection network (generated/median_networks.cuh). u8 and u16 threads compute
// two horizontally adjacent outputs at once as packed u16x2 lanes.
#pragma once

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

// Whether a network kernel serves square windows of side k on planes of this height.
bool median_network_fits(int k, int height);

cudaError_t launch_median_network_u8(int k, const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_network_u16(int k, const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_network_f32(int k, const PlanesArgs& planes, cudaStream_t stream);

}  // namespace fastmedian::kernels
