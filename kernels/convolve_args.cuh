// The CUDA convolutions (convolve.hpp's semantics), as the host side launches them.
// The mask travels as a kernel parameter (constant memory of that launch alone, so concurrent
// calls never share it).
// - small squares 3, 5, 7, 9 (convolve_small.cu): no shared memory; each warp walks down a
//   strip 128 columns wide, reads every input row once with one vector load per lane (loaded
//   ahead of use), takes the halo from its neighbours by shuffles and adds the row to a ring of
//   K output rows in registers; the weights as instruction operands;
// - generic (convolve_generic.cu), other sizes: the block stages its input tile, converted to
//   float, in shared memory; each thread keeps a few outputs of a row in registers and reads
//   each input row of its window once, in 16-byte pieces, per mask row; mask-width buckets of
//   15, 31 and 63 with a loop over the mask rows;
// - separable (convolve_separable.cu): one kernel for both passes: the column pass reads the
//   input (through L1) into a float intermediate in shared memory, eight outputs down a column
//   per thread, and the row pass reads that intermediate and writes the output. Radius buckets
//   up to 64 unroll both passes with the masks zero-padded to the bucket (exact, as 0 x v
//   adds nothing, while every value met is finite; a block that meets a NaN or an infinity
//   redoes the pass with the taps limited to the mask); longer masks loop.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace fastmedian::kernels {

struct ConvolveArgs {
    const void* src;
    std::int64_t src_pitch;         // bytes between rows
    std::int64_t src_plane_stride;  // bytes between planes
    void* dst;
    std::int64_t dst_pitch;
    std::int64_t dst_plane_stride;
    int width;
    int height;
    int planes;        // at most 65535 per launch
    int border;        // BorderMode
    float outside;     // the constant border's value
    int float_out;     // 1: dst holds float32, 0: dst holds src's type
};

// The mask in correlation order: weights[m * kw + n] multiplies in(x - kw/2 + n, y - kh/2 + m)
// (the flipped convolution mask). kw, kh odd, 1..63. pixel_type: 0 u8, 1 u16, 2 f32.
cudaError_t launch_convolve_generic(const ConvolveArgs& args, const float* weights, int kw,
                                    int kh, int pixel_type, cudaStream_t stream);

// Square masks of k = 3, 5, 7 or 9 (launch_convolve_generic sends them here).
cudaError_t launch_convolve_small(const ConvolveArgs& args, const float* weights, int k,
                                  int pixel_type, cudaStream_t stream);

// row[n] multiplies t(x - kw/2 + n, y); column[m] multiplies in(x, y - kh/2 + m) (both flipped).
// kw, kh odd, 1..1023.
cudaError_t launch_convolve_separable(const ConvolveArgs& args, const float* row, int kw,
                                      const float* column, int kh, int pixel_type,
                                      cudaStream_t stream);

}  // namespace fastmedian::kernels
