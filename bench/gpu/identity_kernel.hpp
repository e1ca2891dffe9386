#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace bench {

// Copies `bytes` (a multiple of 16, 16-byte aligned) from src to dst on `stream`.
cudaError_t launch_identity(const void* src, void* dst, std::size_t bytes, cudaStream_t stream);

}  // namespace bench
