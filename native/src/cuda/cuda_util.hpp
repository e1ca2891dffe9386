// What the CUDA host side shares: error checks that throw fastmedian::Error, device buffers,
// and the check that a view in Memory::cuda really is device memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace fastmedian::detail {

// Throws Error(device_error) naming `what` unless e is cudaSuccess.
void check(cudaError_t e, const char* what);

// Throws Error(invalid_argument) naming `name` unless p is memory that `device` can use.
void check_device_pointer(const void* p, int device, const char* name);

// A pitched 2D allocation (rows of width_bytes), freed when it goes.
class DeviceBuffer {
public:
    DeviceBuffer(std::size_t width_bytes, std::size_t height);
    ~DeviceBuffer() { cudaFree(ptr_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    std::int64_t pitch() const { return static_cast<std::int64_t>(pitch_); }

private:
    void* ptr_ = nullptr;
    std::size_t pitch_ = 0;
};

}  // namespace fastmedian::detail
