// How a thread holds order keys for min/max networks. Scalar: one 32-bit key per register
// (f32). Packed: two pixels' keys as 16-bit halves (u8, u16), so each min/max instruction
// (VIMNMX.U16x2, native on sm_90) serves two outputs. __vminu4 is emulated on Hopper, so u8
// is packed two to a register as well.
#pragma once

#include <cstdint>

#include "fma_pipe.cuh"
#include "median_args.cuh"
#include "semantics/order_key.hpp"

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
    __device__ static std::uint32_t hi_given_lo(std::uint32_t a, std::uint32_t b, std::uint32_t) { return hi(a, b); }
};

// 32-bit keys ordered as signed integers (the tiled median's float keys: median_tiled_kernel.cuh).
struct SignedLanes {
    static constexpr int kCols = 1;
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) {
        return static_cast<std::uint32_t>(min(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
    }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) {
        return static_cast<std::uint32_t>(max(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)));
    }
    __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return lo(lo(a, b), c);  // ptxas fuses this into one VIMNMX3
    }
    __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return hi(hi(a, b), c);
    }
    __device__ static std::uint32_t hi_given_lo(std::uint32_t a, std::uint32_t b, std::uint32_t) { return hi(a, b); }
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
    // On the FMA pipe where the networks give it half their exchanges: 9x9, 15x15 and the
    // streaming 5x5 ran faster (docs/notebook/gpu-median-h100-2026-11-27-fma.md). The 32-bit
    // lanes keep the ALU: measured only with every network summing, where f32 11x11 and 21x21
    // fell (as u16 did), they were not tried alone (docs/notebook/gpu-notes.md).
    __device__ static std::uint32_t hi_given_lo(std::uint32_t a, std::uint32_t b, std::uint32_t lo) {
        return other_of(a, b, lo);
    }
};

// Packed lanes with every max on the ALU: the f32 squares' packed launch on whole numbers
// (median_tiled_kernel.cuh). With maxes on the FMA pipe there, f32 9x9 ran much slower (while
// u16 gained) and 15x15 a little faster (docs/notebook/gpu-median-h100-2026-11-27-fma.md).
struct PackedAluLanes : PackedLanes {
    __device__ static std::uint32_t hi_given_lo(std::uint32_t a, std::uint32_t b, std::uint32_t) { return hi(a, b); }
};

// Lanes for a pixel type: packed where keys fit in 16 bits.
template <class T> struct LanesFor { using type = PackedLanes; };
template <> struct LanesFor<float> { using type = ScalarLanes; };

// The key of lane i of a register holding L::kCols keys.
template <class L>
__device__ __forceinline__ std::uint32_t lane_key(std::uint32_t keys, int i) {
    return L::kCols == 1 ? keys : (keys >> (16 * i)) & 0xFFFFu;
}

// The keys of pixels x .. x + L::kCols - 1 of a row of staged keys, in one register.
template <class L, class Key>
__device__ __forceinline__ std::uint32_t pack_keys(const Key* row, int x) {
    std::uint32_t keys = row[x];
    if constexpr (L::kCols == 2) keys |= std::uint32_t{row[x + 1]} << 16;
    return keys;
}

// Writes the register's L::kCols keys as output pixels (x.., y) of plane blockIdx.z, those
// inside the image.
template <class T, class L>
__device__ __forceinline__ void store_lanes(const PlanesArgs& a, int x, int y, std::uint32_t keys) {
    T* row = reinterpret_cast<T*>(static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride +
                                  static_cast<std::int64_t>(y) * a.dst_pitch);
#pragma unroll
    for (int i = 0; i < L::kCols; ++i)
        if (x + i < a.width) row[x + i] = OrderKey<T>::from_key(lane_key<L>(keys, i));
}

}  // namespace fastmedian::kernels
