// Device memory holding a copy of a host test Stack (CUDA builds' tests only).
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "support/test_images.hpp"

namespace fmtest {

// Device memory holding a copy of a host Stack, with the same strides.
class DeviceCopy {
public:
    explicit DeviceCopy(const Stack& s) : bytes_(s.bytes.size()) {
        if (cudaMalloc(&ptr_, bytes_) != cudaSuccess) throw std::runtime_error("cudaMalloc");
        if (cudaMemcpy(ptr_, s.bytes.data(), bytes_, cudaMemcpyHostToDevice) != cudaSuccess)
            throw std::runtime_error("cudaMemcpy");
    }
    ~DeviceCopy() { cudaFree(ptr_); }
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;
    fastmedian::ImageView view(const Stack& s) const {
        fastmedian::ImageView v;
        v.data = static_cast<std::uint8_t*>(ptr_);
        v.type = s.type;
        v.width = s.width;
        v.height = s.height;
        v.planes = s.planes;
        v.row_stride = s.row_stride;
        v.plane_stride = s.plane_stride;
        v.memory = fastmedian::Memory::cuda;
        return v;
    }
    void copy_to(Stack& s) const {
        ASSERT_EQ(cudaMemcpy(s.bytes.data(), ptr_, bytes_, cudaMemcpyDeviceToHost), cudaSuccess);
    }

private:
    void* ptr_ = nullptr;
    std::size_t bytes_;
};

}  // namespace fmtest
