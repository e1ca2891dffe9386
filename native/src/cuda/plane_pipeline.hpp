// The host-memory path of the CUDA filters (2D median, background, convolution; temporal and 3D
// median in bands of every plane): a worker per core (up to kMaxPipelineSlots per device) takes
// plane after plane through its own slot (a stream, device planes, pinned staging buffers):
// pageable planes are staged through pinned memory by the worker's core, pinned ones
// (cudaMallocHost'd or cudaHostRegister'd) are copied to and from directly; the workers' host
// copies, uploads, kernels and downloads overlap. Several devices share the planes: each has its
// own workers, and they take the next plane from one queue. Filters whose outputs read every plane
// (the temporal and 3D medians) take bands of rows of all the planes instead. A plane larger than
// the device memory allows goes through in bands of rows, each with the rows around it that its
// outputs read, so that the results are those of the whole plane. Streams, buffers and worker
// threads belong to a context of a device that later calls reuse (one context per concurrent call
// and device); a call that fails drops its contexts.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

constexpr int kMaxPipelineSlots = 16;  // per device

// The inputs [top, bottom) along an axis of n that outputs [first, last) read, `halo` either side:
// beyond the ends the border mode maps them (semantics/border_index.hpp), but a constant border is
// the kernels' own, so the range stops at the ends. Bands of rows use it.
struct HaloRange {
    std::int64_t top, bottom;
};
inline HaloRange halo_range(std::int64_t first, std::int64_t last, std::int64_t halo, std::int64_t n,
                            Border border) {
    if (border == Border::constant) return {std::max<std::int64_t>(first - halo, 0), std::min(last + halo, n)};
    return {first - halo, last + halo};
}

// What the pipeline needs to cut a plane into bands of rows.
struct PlaneReach {
    int halo_rows = 0;                   // an output row reads the input rows this far away
    Border border = Border::replicate;   // how the rows outside the image read
    std::int64_t scratch_row_bytes = 0;  // the filter's own device memory per row, per slot
    // Items of every plane at once: a band of rows of all the planes (the temporal median, whose
    // outputs read every plane); else an item is one plane, or a band of one.
    bool every_plane = false;
};

// A plane, or a band of a plane, on the device, for a filter to run on `stream` (the device is
// current). `slot` (0..pipeline_slots(devices)-1) names the slot, for filters that keep
// scratch memory per slot: a slot's planes run one after the other, on one thread, on one
// device. Filters are called from several threads at once.
struct DevicePlane {
    const void* src;
    std::int64_t src_pitch;
    void* dst;
    std::int64_t dst_pitch;
    std::int64_t rows;    // of src and dst: the plane's height, or a band's rows with their halo
    std::int64_t planes;  // 1, or every plane (PlaneReach::every_plane), `rows` rows apart
    cudaStream_t stream;
    int slot;
};
using PlaneFilter = std::function<void(const DevicePlane&)>;

// The slots a call on `devices` devices may name.
inline int pipeline_slots(std::size_t devices) {
    return static_cast<int>(devices) * kMaxPipelineSlots;
}

// Filters every plane of validated host views on `devices` (distinct, existing; dst may be of
// another pixel type: convolution's float output) and returns once dst is written. The filter
// applies `reach.border` at the edges of what it is given: a band's outer rows are read as the
// border mode reads the image (constant: the band stops at the image's edge). Throws
// Error(device_error).
void filter_host_planes(const ConstImageView& src, const ImageView& dst,
                        const std::vector<int>& devices, const PlaneReach& reach,
                        const PlaneFilter& filter);

// Frees the contexts no call is using (tests: device memory back to what it was).
void release_idle_pipeline_contexts();

}  // namespace fastmedian::detail
