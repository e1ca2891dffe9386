// What the CUDA host side shares: error checks that throw fastmedian::Error, device buffers,
// and the check that a view in Memory::cuda really is device memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace fastmedian::detail {

// Throws Error(device_error) naming `what` unless e is cudaSuccess.
void check(cudaError_t e, const char* what);

// check() for a kernel launch's error, which fault injection can replace.
void check_launch(cudaError_t e, const char* what);

// Test-only fault injection: a later device allocation (DeviceBuffer) fails with
// cudaErrorMemoryAllocation, or a later kernel launch check with cudaErrorLaunchOutOfResources
// (a launch failure the context survives; after a sticky one such as cudaErrorLaunchFailure
// the context is unusable for the rest of the process), as the CUDA runtime reports them, so
// tests can check what a GPU fault leaves behind. The fault hits the call of its kind after
// the next `skip` ones, in any thread, then disarms itself; Fault::none disarms it. Only tests
// arm it.
enum class Fault { none, device_allocation, kernel_launch };
void inject_fault(Fault fault, int skip = 0);

// Device memory a host path may use on the current device: `fraction` of what is free, or
// FASTMEDIAN_CUDA_MEMORY_LIMIT bytes where that is set and smaller (tests force tiling with it).
std::size_t memory_budget(double fraction);

// Throws Error(invalid_argument) naming `name` unless p is memory that `device` can use.
void check_device_pointer(const void* p, int device, const char* name);

// A pitched 2D allocation (rows of width_bytes) on the current device, freed on that device
// when it goes (whichever is current then: the plane pipeline's buffers of several devices).
class DeviceBuffer {
public:
    DeviceBuffer(std::size_t width_bytes, std::size_t height);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    std::int64_t pitch() const { return static_cast<std::int64_t>(pitch_); }

private:
    void* ptr_ = nullptr;
    std::size_t pitch_ = 0;
    int device_ = 0;
};

// Flat device memory that a filter takes as it needs it (the ranked median's scratch), grown on
// demand. Stream-ordered: allocated and released in the order of the stream of the work that
// uses it, for a call that returns without waiting for its work, from a pool of the library's
// own that keeps up to 1 GiB a device for the next call (cudaMallocFromPoolAsync). Otherwise
// from cudaMalloc, released when it goes: for work done by then, on streams that may be gone
// before it (the plane pipeline's).
class ScratchMemory {
public:
    explicit ScratchMemory(bool stream_ordered) : stream_ordered_(stream_ordered) {}
    ~ScratchMemory() { release(); }
    ScratchMemory(const ScratchMemory&) = delete;
    ScratchMemory& operator=(const ScratchMemory&) = delete;
    // At least `bytes` bytes on the current device, for work enqueued on `stream` from now on.
    void* get(std::size_t bytes, cudaStream_t stream);

private:
    void release();
    bool stream_ordered_;
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
    cudaStream_t stream_ = nullptr;
    int device_ = 0;
};

}  // namespace fastmedian::detail
