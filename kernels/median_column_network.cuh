// Windows served by the sorted-column networks (networks/generated/median_column_networks.hpp,
// shared with the CPU backend): squares 1 to 7 and ImageJ circles to radius 3.5 (the dispatch sends
// the squares 3 to 7 to the tiled networks, which are faster). Each block stages its tile as keys
// in shared memory (border resolved once per row and column), sorts every window column once per
// output row (each sorted column serves every output whose window holds it), then each thread runs
// the window's pruned selection network over sorted columns. u8 and u16 threads compute two
// adjacent outputs at once as packed u16x2 lanes.
#pragma once

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

// Whether these kernels serve a window given as rows of runs, on planes of this height.
bool median_column_network_serves(const int* half_width, int rows, int height);

cudaError_t launch_median_column_network_u8(const int* half_width, int rows,
                                            const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_column_network_u16(const int* half_width, int rows,
                                             const PlanesArgs& planes, cudaStream_t stream);
cudaError_t launch_median_column_network_f32(const int* half_width, int rows,
                                             const PlanesArgs& planes, cudaStream_t stream);

}  // namespace fastmedian::kernels
