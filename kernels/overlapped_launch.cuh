// Launches that overlap the kernel before them in the stream (programmatic dependent launch,
// Hopper and later): such a kernel's blocks are scheduled as the previous kernel's last blocks
// end, before its writes are flushed, so that back-to-back calls (a stack's planes, one filter
// after another) pay less of the launch between them. A kernel launched so must call
// wait_for_previous_grid() before it touches global memory. Elsewhere, or launched plainly, it
// is a no-op. Back-to-back medians ran faster so; the previous kernel's early trigger
// (griddepcontrol.launch_dependents at its blocks' start) did not help: the next grid's blocks
// then all start at once (docs/notebook/gpu-median-h100-2026-11-26-overlap.md).
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace fastmedian::kernels {

// Waits until the previous kernel in the stream has ended and its writes are visible.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// kernel<<<grid, block, shared, stream>>>(args...), allowed to overlap the previous kernel.
template <class... Params, class... Args>
cudaError_t launch_overlapped(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared,
                              cudaStream_t stream, Args&&... args) {
    int device = 0, major = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e != cudaSuccess) return e;
    cudaLaunchAttribute overlap[1];
    overlap[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    config.attrs = overlap;
    config.numAttrs = major >= 9 ? 1 : 0;  // Hopper and later
    return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace fastmedian::kernels
