// What the GPU benchmarks share: CUDA error checks that throw, and a pitched device image that
// hands out fastmedian views of itself.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "fastmedian/image.hpp"
#include "raw_image.hpp"

namespace bench {

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceImage {
    void* ptr = nullptr;
    std::int64_t pitch = 0;
    DeviceImage(std::int64_t row_bytes, std::int64_t height) {
        std::size_t p = 0;
        check(cudaMallocPitch(&ptr, &p, static_cast<std::size_t>(row_bytes),
                              static_cast<std::size_t>(height)),
              "cudaMallocPitch");
        pitch = static_cast<std::int64_t>(p);
    }
    ~DeviceImage() { cudaFree(ptr); }
    DeviceImage(const DeviceImage&) = delete;
    DeviceImage& operator=(const DeviceImage&) = delete;
    fastmedian::ImageView view(fastmedian::PixelType type, std::int64_t width, std::int64_t height) const {
        fastmedian::ImageView v;
        v.data = static_cast<std::uint8_t*>(ptr);
        v.type = type;
        v.width = width;
        v.height = height;
        v.row_stride = pitch;
        v.plane_stride = pitch * height;
        v.memory = fastmedian::Memory::cuda;
        return v;
    }
    // Copies the host image (a plane, or a volume's planes as rows one below the other) in.
    void upload(const HostImage& image) const {
        const auto row = image.width * static_cast<std::int64_t>(fastmedian::pixel_size(image.type));
        check(cudaMemcpy2D(ptr, static_cast<std::size_t>(pitch), image.bytes.data(),
                           static_cast<std::size_t>(row), static_cast<std::size_t>(row),
                           static_cast<std::size_t>(image.height * image.depth), cudaMemcpyHostToDevice),
              "upload");
    }
};

}  // namespace bench
