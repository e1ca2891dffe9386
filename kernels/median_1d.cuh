// 1D sliding medians down the columns of a plane, written transposed (the separable median
// smoother: two such passes filter the columns, then the rows, each reading along coalesced
// columns), and the output step that turns a median plane into the filter's output
// (semantics/median_output.hpp). One thread per column (or pair of 8- or 16-bit columns) walks a
// band of rows down it: up to k = 129 (u8: 65) it computes a tile of consecutive medians at a time
// with a generated network that shares their common work; past that 8-bit columns keep a histogram
// of the window, and 16-bit and float ones keep it sorted in shared memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "semantics/median_output.hpp"

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
    void* windows;            // median_columns_windows_bytes(args) bytes of device memory, where that is not 0
};

// Row x of dst (args.height pixels, args.width rows) = the medians of windows of
// 2 * radius + 1 rows down column x of src (args.width x args.height); where args.mode
// subtracts, median_output(pixel, median, mode) of args.pixels (laid out as dst) instead.
// pixel_type: 0 u8, 1 u16, 2 f32.
cudaError_t launch_median_columns(const LineArgs& args, int pixel_type, cudaStream_t stream);

// The device memory launch_median_columns needs for its windows where a block's do not fit the
// GPU's shared memory (long windows on GPUs with less than the H100's), else 0.
std::size_t median_columns_windows_bytes(const LineArgs& args, int pixel_type);

// dst = median_output(pixels, src as the median) pixel by pixel (src, dst, pixels as in args).
cudaError_t launch_median_output(const LineArgs& args, int pixel_type, cudaStream_t stream);

}  // namespace fastmedian::kernels
