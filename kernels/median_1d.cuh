// 1D sliding medians along the columns or the rows of a plane (the separable median smoother),
// a transpose (so rows can be filtered as columns, with coalesced reads), and the output step
// that turns a median plane into the filter's output (median_output.cuh). One thread per line
// walks a band of positions along it: 8-bit columns keep a histogram of the window;
// otherwise the thread keeps the median and how many window keys lie below and at it, and
// scans the window only when the median moves past its ties.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "median_output.cuh"

namespace fastmedian::kernels {

struct LineArgs {
    const void* src;          // the plane read
    std::int64_t src_pitch;
    void* dst;                // the plane written
    std::int64_t dst_pitch;
    const void* pixels;       // for mode subtract: the input plane the output subtracts from
    std::int64_t pixels_pitch;
    int width;
    int height;
    int radius;               // window 2 * radius + 1
    int border;               // BorderMode
    std::uint32_t outside_key;
    OutputMode mode;
};

// pixel_type: 0 u8, 1 u16, 2 f32. columns: along y (each column a line), else along x.
cudaError_t launch_median_1d(const LineArgs& args, int pixel_type, bool columns, cudaStream_t stream);

// dst (args.width x args.height) = src transposed (args.width rows of args.height pixels); with
// args.pixels, the output step median_output(pixels, that, mode) instead.
cudaError_t launch_transpose_output(const LineArgs& args, int pixel_type, cudaStream_t stream);

// dst = median_output(pixels, src as the median) pixel by pixel (src, dst, pixels as in args).
cudaError_t launch_median_output(const LineArgs& args, int pixel_type, cudaStream_t stream);

}  // namespace fastmedian::kernels
