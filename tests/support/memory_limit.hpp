// FASTMEDIAN_CUDA_MEMORY_LIMIT for as long as a MemoryLimit lives: the CUDA host paths then cut
// their work (bands of rows, slabs of planes, tiles of pixels) to fit that many bytes.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace fmtest {

class MemoryLimit {
public:
    explicit MemoryLimit(std::int64_t bytes) {
        setenv("FASTMEDIAN_CUDA_MEMORY_LIMIT", std::to_string(bytes).c_str(), 1);
    }
    ~MemoryLimit() { unsetenv("FASTMEDIAN_CUDA_MEMORY_LIMIT"); }
    MemoryLimit(const MemoryLimit&) = delete;
    MemoryLimit& operator=(const MemoryLimit&) = delete;
};

}  // namespace fmtest
