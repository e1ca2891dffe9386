// Shared memory within the active GPU policy (gpu_policy.hpp): what a block of a kernel takes,
// whether that fits, and the opt-in every launch with dynamic shared memory goes through, which
// refuses a block larger than the policy allows (as the GPU itself would, only before any
// launch, and on a GPU that has more: a forced policy's limits hold on the H100 too).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "gpu_policy.hpp"

namespace fastmedian::kernels {

// Records why the last opt-in on this thread refused, for the error the caller raises.
void note_shared_refusal(std::size_t needs, std::size_t allowed);
// That reason ("" if none), cleared.
std::string take_shared_refusal();

// The static shared memory of a block of `kernel` on the current device: asked of the runtime
// once per kernel and device, as dispatchers ask before each plane.
cudaError_t static_shared_bytes(const void* kernel, std::size_t& bytes);

// The shared memory a block may have under the policy of the architecture that the current
// device's code of `kernel` was compiled for (its PTX version, the __CUDA_ARCH__ it saw): older
// than the device's own where the build has no code for it (machine code of an older minor
// version, or PTX compiled as the program loads). Kernels may compile their body only where
// their block fits that (median_tiled).
cudaError_t compiled_shared_per_block(const void* kernel, std::size_t& bytes);

// The static and dynamic shared memory of one block of `kernel` launched with `dynamic` bytes.
template <class Kernel>
cudaError_t block_shared_bytes(Kernel kernel, std::size_t dynamic, std::size_t& bytes) {
    const cudaError_t e = static_shared_bytes(reinterpret_cast<const void*>(kernel), bytes);
    bytes += dynamic;
    return e;
}

// Whether blocks of `kernel` with `dynamic` bytes fit the active policy.
template <class Kernel>
bool shared_fits(Kernel kernel, std::size_t dynamic) {
    std::size_t bytes = 0;
    if (block_shared_bytes(kernel, dynamic, bytes) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return bytes <= active_shared_per_block();
}

// Lets blocks of `kernel` take `dynamic` bytes of dynamic shared memory, with the carveout of
// the active policy (active_shared_carveout: under a forced one, as many blocks an SM as that
// architecture holds); refuses with cudaErrorInvalidConfiguration (and note_shared_refusal)
// where the active policy allows less.
template <class Kernel>
cudaError_t opt_in_shared(Kernel kernel, std::size_t dynamic) {
    std::size_t bytes = 0;
    cudaError_t e = block_shared_bytes(kernel, dynamic, bytes);
    if (e != cudaSuccess) return e;
    const std::size_t allowed = active_shared_per_block();
    if (bytes > allowed) {
        note_shared_refusal(bytes, allowed);
        return cudaErrorInvalidConfiguration;
    }
    const void* k = reinterpret_cast<const void*>(kernel);
    e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic));
    return e != cudaSuccess ? e
                            : cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                   active_shared_carveout());
}

}  // namespace fastmedian::kernels
