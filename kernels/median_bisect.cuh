// The first CUDA median: one thread per output pixel finds the window's middle value by
// bisection over order keys (count keys <= mid, halve the key range). Exact for every window,
// type and border, memory-free, and slow: log2(key range) passes over the window. The fast
// kernels of later work are tested against the same CPU reference.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace fastmedian::kernels {

struct MedianBisectArgs {
    const void* src;           // device plane, pitched
    std::int64_t src_pitch;    // bytes
    void* dst;                 // device plane, pitched
    std::int64_t dst_pitch;    // bytes
    int width;
    int height;
    const int* half_width;     // device array of 2 * radius_y + 1 run half widths
    int radius_y;
    int border;                // BorderMode
    std::uint32_t outside_key; // order key of the constant border value
    int rank;                  // rank of the median among the window's values
};

// Launches on `stream`; returns the launch's error code.
cudaError_t launch_median_bisect_u8(const MedianBisectArgs& args, cudaStream_t stream);
cudaError_t launch_median_bisect_u16(const MedianBisectArgs& args, cudaStream_t stream);
cudaError_t launch_median_bisect_f32(const MedianBisectArgs& args, cudaStream_t stream);

}  // namespace fastmedian::kernels
