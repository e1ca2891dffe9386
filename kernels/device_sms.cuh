// The current device's count of SMs, which the launches that size their grids to the whole GPU
// (waves of resident blocks) ask for.
#pragma once

#include <cuda_runtime_api.h>

namespace fastmedian::kernels {

inline cudaError_t current_sm_count(int& sms) {
    int device = 0;
    const cudaError_t e = cudaGetDevice(&device);
    return e == cudaSuccess ? cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) : e;
}

}  // namespace fastmedian::kernels
