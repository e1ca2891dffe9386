// The host-memory path of the plane-wise CUDA filters (2D median, background, convolution):
// a worker per core (up to kMaxPipelineSlots) takes plane after plane through its own slot (a
// stream, device planes, pinned staging buffers): pageable planes are staged through pinned
// memory by the worker's core, pinned ones (cudaMallocHost'd or cudaHostRegister'd) are copied
// to and from directly; the workers' host copies, uploads, kernels and downloads overlap.
// Streams, buffers and worker threads belong to a context of the device that later calls reuse
// (one context per concurrent call); a call that fails drops its context.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "fastmedian/image.hpp"

namespace fastmedian::detail {

constexpr int kMaxPipelineSlots = 16;

// One plane on the device, for a filter to run on `stream`. `slot` (0..kMaxPipelineSlots-1)
// names the slot, for filters that keep scratch memory per slot: a slot's planes run one after
// the other, on one thread. Filters are called from several threads at once.
struct DevicePlane {
    const void* src;
    std::int64_t src_pitch;
    void* dst;
    std::int64_t dst_pitch;
    cudaStream_t stream;
    int slot;
};
using PlaneFilter = std::function<void(const DevicePlane&)>;

// Filters every plane of validated host views on `device` (dst may be of another pixel type:
// convolution's float output) and returns once dst is written. Throws Error(device_error).
void filter_host_planes(const ConstImageView& src, const ImageView& dst, int device,
                        const PlaneFilter& filter);

// Frees the contexts no call is using (tests: device memory back to what it was).
void release_idle_pipeline_contexts();

}  // namespace fastmedian::detail
