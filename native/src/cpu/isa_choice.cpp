// Which build of the ISA kernels runs (isa_kernels.hpp).
#include <cstdlib>
#include <cstring>

#include "cpu/isa_kernels.hpp"

namespace fastmedian::detail {

bool use_avx2_kernels() {
#ifdef FASTMEDIAN_HAVE_AVX2_KERNELS
    const char* env = std::getenv("FASTMEDIAN_CPU_AVX2");
    return __builtin_cpu_supports("avx2") && !(env != nullptr && std::strcmp(env, "0") == 0);
#else
    return false;
#endif
}

bool use_avx512_kernels() {
#ifdef FASTMEDIAN_HAVE_AVX512_KERNELS
    const char* env = std::getenv("FASTMEDIAN_CPU_AVX512");
    return use_avx2_kernels() && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && !(env != nullptr && std::strcmp(env, "0") == 0);
#else
    return false;
#endif
}

}  // namespace fastmedian::detail
