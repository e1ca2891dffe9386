// Device-side helpers of the temporal-median benchmark (bench_temporal.cpp):
// - make_stack: writes the benchmark movie (temporal_stack.hpp) into device memory;
// - sort_temporal: the plain baseline, one thread per pixel per output frame, which copies the
//   pixel's N window values into a local array, sorts them (insertion sort for N <= 64, else
//   heapsort) and writes the element of rank (N-1)/2, with temporal.hpp's window rule.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "fastmedian/image.hpp"

namespace bench {

// Dense stack layouts below: pixel (x, y, z) at element z * width * height + y * width + x.

// Fills frames [0, frames) of `dst` from `base` (device memory, (size + 2 * kStackMargin)^2
// pixels, dense rows) with the per-frame shifts dx, dy (device arrays of `frames` ints).
cudaError_t launch_make_stack(fastmedian::PixelType type, const void* base, void* dst,
                              std::int64_t size, std::int64_t frames, const int* dx,
                              const int* dy, cudaStream_t stream);

// The largest N the baseline handles.
constexpr int kSortTemporalMaxWindow = 1024;

// Output frames [t_begin, t_end) of the temporal median of window N over the region of
// `width` x `height` pixels at the start of each frame, in a stack of `frames` frames whose
// rows are `row_pixels` and frames `plane_pixels` elements apart (src and dst alike).
cudaError_t launch_sort_temporal(fastmedian::PixelType type, const void* src, void* dst,
                                 std::int64_t width, std::int64_t height, std::int64_t row_pixels,
                                 std::int64_t plane_pixels, std::int64_t frames, int window,
                                 std::int64_t t_begin, std::int64_t t_end, cudaStream_t stream);

}  // namespace bench
