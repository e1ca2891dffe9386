// How a thread holds order keys for min/max networks. Scalar: one 32-bit key per register
// (f32). Packed: two pixels' keys as 16-bit halves (u8, u16), so each min/max instruction
// (VIMNMX.U16x2, native on sm_90) serves two outputs. __vminu4 is emulated on Hopper, so u8
// is packed two to a register as well.
#pragma once

#include <cstdint>

namespace fastmedian::kernels {

struct ScalarLanes {
    static constexpr int kCols = 1;
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return min(a, b); }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return max(a, b); }
    __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return min(min(a, b), c);  // ptxas fuses this into one VIMNMX3
    }
    __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return max(max(a, b), c);
    }
};

struct PackedLanes {
    static constexpr int kCols = 2;
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return __vminu2(a, b); }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return __vmaxu2(a, b); }
    __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return __vimin3_u16x2(a, b, c);
    }
    __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return __vimax3_u16x2(a, b, c);
    }
};

// Lanes for a pixel type: packed where keys fit in 16 bits.
template <class T> struct LanesFor { using type = PackedLanes; };
template <> struct LanesFor<float> { using type = ScalarLanes; };

}  // namespace fastmedian::kernels
