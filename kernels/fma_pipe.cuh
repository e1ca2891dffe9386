// Integer sums on the FMA pipe, to take work off the ALU pipe that runs every min/max of the
// median networks (64 an SM a clock, whatever the flavour:
// docs/notebook/minmax-throughput-h100-2026-11-24.md) while the FMA pipe, at the same rate for
// IMAD, has little but addresses to do. Where a compare-exchange's two outputs are both needed,
// the max is a + b - min: exact for 32-bit keys (mod 2^32) and for each 16-bit half of packed
// keys (each half's result lies in 0..65535, so no borrow or carry crosses the halves of the
// result). The one and minus one come from __constant__ memory so that ptxas cannot fold the
// multiply-add into an IADD3, which would run on the ALU again.
#pragma once

#include <cstdint>

namespace fastmedian::kernels {

static __constant__ std::uint32_t kFmaOnes[2] = {1u, 0xFFFFFFFFu};

struct FmaOnes {
    std::uint32_t one, minus_one;

    // a + b and a - b, as IMAD.
    __device__ std::uint32_t add(std::uint32_t a, std::uint32_t b) const {
        std::uint32_t r;
        asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(one), "r"(b));
        return r;
    }
    __device__ std::uint32_t sub(std::uint32_t a, std::uint32_t b) const {
        std::uint32_t r;
        asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(b), "r"(minus_one), "r"(a));
        return r;
    }
};

// Kernels that keep the ones in registers read them once (median3x3_stream.cu ran faster so
// than with each sum reading them: docs/notebook/tuning-figures-from-comments.md).
__device__ __forceinline__ FmaOnes fma_ones() { return {kFmaOnes[0], kFmaOnes[1]}; }

// The other output of the compare-exchange of a and b whose one output is `one_out`.
__device__ __forceinline__ std::uint32_t other_of(std::uint32_t a, std::uint32_t b, std::uint32_t one_out) {
    const FmaOnes k = fma_ones();
    return k.sub(k.add(a, b), one_out);
}

}  // namespace fastmedian::kernels
