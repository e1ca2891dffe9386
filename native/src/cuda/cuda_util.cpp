#include "cuda/cuda_util.hpp"

#include <string>

#include "fastmedian/errors.hpp"

namespace fastmedian::detail {

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    throw Error(ErrorCode::device_error,
                std::string("CUDA ") + what + " failed: " + cudaGetErrorString(e));
}

void check_device_pointer(const void* p, int device, const char* name) {
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, p);
    cudaGetLastError();
    const bool ok = e == cudaSuccess &&
                    ((attr.type == cudaMemoryTypeDevice && attr.device == device) ||
                     attr.type == cudaMemoryTypeManaged);
    if (!ok)
        throw Error(ErrorCode::invalid_argument,
                    std::string(name) + " is not memory of CUDA device " + std::to_string(device) +
                        " (views in Memory::cuda need cudaMalloc'd or managed memory)");
}

DeviceBuffer::DeviceBuffer(std::size_t width_bytes, std::size_t height) {
    check(cudaMallocPitch(&ptr_, &pitch_, width_bytes, height), "cudaMallocPitch");
}

}  // namespace fastmedian::detail
