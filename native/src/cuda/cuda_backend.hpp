// The CUDA backend's host side, as the dispatcher sees it: no CUDA types cross this header.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"
#include "semantics/footprint.hpp"
#include "semantics/footprint3d.hpp"
#include "semantics/median_output.hpp"

namespace fastmedian::detail {

// Expects validated arguments and existing, distinct devices; throws Error(device_error) on
// failure. Views in Memory::cuda are filtered on the first device, on `cuda_stream` (a
// cudaStream_t; nullptr waits for the result); host views are spread over all the devices.
// dst is the box of src's output at `origin` (through a temporary unless it is all of it:
// filter_box_cuda).
void median2d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                   Border border, double cval, const std::vector<int>& devices, void* cuda_stream,
                   const Origin& origin);

// The 3D median of validated views, on the same terms.
void median3d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                   Border border, double cval, int device, void* cuda_stream,
                   const Origin& origin);

}  // namespace fastmedian::detail

namespace fastmedian::detail {

// The temporal median of validated views (window frames). Host views go through the plane
// pipeline in bands of rows of every frame, or, where one row of every frame does not fit the
// free device memory (or FASTMEDIAN_CUDA_MEMORY_LIMIT bytes), in tiles of pixels over all
// frames, one after the other.
void temporal_median_cuda(const ConstImageView& src, const ImageView& dst, int window,
                          const kernels::OutputMode& offset, int device, void* cuda_stream);

// TemporalMedianStream's GPU side: the last `window` frames stay on the device, each push
// copies one frame up and one result down through pinned buffers on its own CUDA stream.
class TemporalStreamCuda {
public:
    TemporalStreamCuda(PixelType type, std::int64_t width, std::int64_t height, int window,
                       const kernels::OutputMode& offset, int device);
    ~TemporalStreamCuda();
    TemporalStreamCuda(const TemporalStreamCuda&) = delete;
    TemporalStreamCuda& operator=(const TemporalStreamCuda&) = delete;

    // Copies `frame` (a validated host view) and enqueues the median of the last
    // min(pushed + 1, window) frames, `pushed` being how many came before it.
    void start(const ConstImageView& frame, std::int64_t pushed);
    // Waits for the result of the last start() and writes it into `out`.
    void finish(const ImageView& out);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace fastmedian::detail

namespace fastmedian::detail {

// The background of validated views: the exact median (fp) or the separable smoother (radius
// fp.radius_y), then the output step `mode`, plane by plane, on `devices` as median2d_cuda.
void background_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                     bool separable, Border border, double cval, const kernels::OutputMode& mode,
                     const std::vector<int>& devices, void* cuda_stream);

}  // namespace fastmedian::detail
