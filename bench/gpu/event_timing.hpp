// Timing for the GPU benchmarks: CUDA events around batches of back-to-back calls.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "device_image.hpp"

namespace bench {

// Median milliseconds per call over `runs` batches; batches hold enough calls to fill ~2 ms.
inline double time_ms(const std::function<void()>& call, cudaStream_t stream, int runs) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (int i = 0; i < 3; ++i) call();  // warm-up
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    call();
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float one = 0;
    cudaEventElapsedTime(&one, start, stop);
    const int batch = std::clamp(static_cast<int>(2.0f / std::max(one, 1e-3f)), 1, 50);
    if (one > 200.0f) runs = std::min(runs, 3);  // very slow configurations: fewer runs
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        for (int b = 0; b < batch; ++b) call();
        check(cudaEventRecord(stop, stream), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        ms.push_back(static_cast<double>(t) / batch);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
}

}  // namespace bench
