// The CUDA temporal median: one thread per pixel walks through all frames.
// - network: windows of up to 10 frames in registers, slid by one frame per output and reduced
//   by the generated selection network (networks/generated/temporal_networks.hpp);
// - sliding: longer windows keep the median, and how many window keys lie below and at it, and
//   only when a slide moves the median past its ties scan the window for the next key down or
//   up (one pass). The window's keys sit in shared memory (a ring of frames per thread), or are
//   read from the frames themselves where shared memory cannot hold them;
// - frames: the median of an unordered set of frames (the streaming form's ring), by
//   bisection over the order keys.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "semantics/median_output.hpp"

namespace fastmedian::kernels {

struct TemporalArgs {
    const void* src;
    std::int64_t src_pitch;         // bytes between rows
    std::int64_t src_frame_stride;  // bytes between frames
    void* dst;
    std::int64_t dst_pitch;
    std::int64_t dst_frame_stride;
    int width;
    int height;
    std::int64_t frames;
    int window;
    OutputMode offset;
};

// pixel_type: 0 u8, 1 u16, 2 f32 (PixelType's order).
cudaError_t launch_temporal_network(const TemporalArgs& args, int pixel_type, cudaStream_t stream);

// threads_per_block pixels per block; shared: keep the windows in shared memory (needs
// window * threads_per_block * key bytes of it, key bytes = pixel bytes).
cudaError_t launch_temporal_sliding(const TemporalArgs& args, int pixel_type, int threads_per_block,
                                    bool shared, cudaStream_t stream);

// dst (one frame) = the median of src frames 0 .. args.frames - 1, finished with `newest`
// (a frame laid out like src) in mode subtract. args.window is unused.
cudaError_t launch_temporal_frames(const TemporalArgs& args, const void* newest, int pixel_type,
                                   cudaStream_t stream);

}  // namespace fastmedian::kernels
