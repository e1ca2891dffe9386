// The 3D median of windows of up to kMaxPaddedWindow voxels that have no tiled network (boxes
// whose x and y sides differ, ellipsoids of fractional or unequal radii, windows deep in z):
// each block stages the input box its outputs read (every plane the window reaches) as keys in
// shared memory; each thread gathers its window's keys by a table of offsets into registers,
// pads them to the next size of the generated median networks (kPaddedSizes) with as many keys
// below every key as above, so that the median stays the window's, and runs that network: two
// outputs a thread for u8 and u16 (packed keys), one for f32. Exact for every window and border;
// what it does not serve takes the radix selection (median3d_select.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "fastmedian/image.hpp"
#include "median3d_args.cuh"

namespace fastmedian::kernels {

constexpr int kMaxPaddedWindow = 169;  // the largest of kPaddedSizes

// Shared memory a block of the padded kernel takes for a window of these radii on `type`.
std::size_t median3d_padded_shared_bytes(PixelType type, int radius_x, int radius_y, int radius_z);

// Whether the padded kernel serves a window of `count` voxels and these radii on `type` over
// planes `height` rows high: at most kMaxPaddedWindow voxels, a block's staged box within the
// 48 KB every GPU gives a block without asking, and no more blocks down a plane than a grid has.
bool median3d_padded_serves(PixelType type, int count, int radius_x, int radius_y, int radius_z, int height);

// Output planes [first_plane, first_plane + planes) of the volume. half_width: the window's
// runs as Runs3DWindow's table, in host memory; the window must be one the kernel serves.
cudaError_t launch_median3d_padded(PixelType type, const VolumeArgs& volume, int planes,
                                   const int* half_width, int radius_x, int radius_y,
                                   int radius_z, cudaStream_t stream);

}  // namespace fastmedian::kernels
