// Stages a block's input tile, halo included, in shared memory as order keys: the border rule
// is applied once per row and per column of the tile, not once per read. For the kernels that
// gather windows from shared memory.
#pragma once

#include <cstdint>

#include "median_args.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::kernels {

// Keys as staged: 16 bits where they fit, so a packed pair costs two 16-bit loads.
template <class T> struct StagedKey { using type = std::uint16_t; };
template <> struct StagedKey<float> { using type = std::uint32_t; };

// tile[ty][tx] = key of source pixel (top + ty, left + tx) of plane blockIdx.z, the border
// applied. All threads of the block take part; the tile is ready when this returns.
template <class T, int kInH, int kInW>
__device__ __forceinline__ void stage_tile(typename StagedKey<T>::type (&tile)[kInH][kInW],
                                           const PlanesArgs& a, int left, int top) {
    __shared__ int row_of[kInH], col_of[kInW];  // source row/column, -1 for the constant
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * blockDim.y;
    for (int i = tid; i < kInW; i += threads)
        col_of[i] = static_cast<int>(border_index(left + i, a.width, a.border));
    for (int i = tid; i < kInH; i += threads)
        row_of[i] = static_cast<int>(border_index(top + i, a.height, a.border));
    __syncthreads();
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    for (int i = tid; i < kInW * kInH; i += threads) {
        const int ty = i / kInW, tx = i - ty * kInW;
        const int sy = row_of[ty], sx = col_of[tx];
        tile[ty][tx] = static_cast<typename StagedKey<T>::type>(
            (sy < 0 || sx < 0)
                ? a.outside_key
                : OrderKey<T>::to_key(reinterpret_cast<const T*>(
                      plane + static_cast<std::int64_t>(sy) * a.src_pitch)[sx]));
    }
    __syncthreads();
}

}  // namespace fastmedian::kernels
