// A lane's words down the rows of a plane, for the streaming kernels' blocks that lie inside
// the image (pitches below 2^31): each address is the lane's column address, kept whole, plus
// row * pitch in one multiply-add (IMAD.WIDE, on the FMA pipe), instead of 64-bit adds on the
// ALU pipe that the min/max networks need; and stores predicated rather than branched around.
// u8 3x3 went from 253 to 191 instructions a step and ran faster, 5x5 and f32 7x7 a little
// (docs/notebook/gpu-median-h100-2026-11-26-overlap.md).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "median_args.cuh"

namespace fastmedian::kernels {

struct LaneRows {
    std::uint64_t column;  // the lane's word in row 0
    unsigned pitch;

    __device__ LaneRows(const void* lane_word, std::int64_t row_pitch)
        : column(reinterpret_cast<std::uint64_t>(lane_word)), pitch(static_cast<unsigned>(row_pitch)) {
        asm("" : "+l"(column));  // so that the compiler does not split it into base + lane offset
    }
    __device__ std::uint64_t at(int row) const { return column + static_cast<std::uint64_t>(static_cast<unsigned>(row)) * pitch; }
};

// Whether LaneRows serves these planes' rows in and out (pitches below 2^31).
__device__ inline bool lane_rows_serve(const PlanesArgs& a) {
    return a.src_pitch < (std::int64_t{1} << 31) && a.dst_pitch < (std::int64_t{1} << 31);
}

__device__ inline void load_global(std::uint64_t at, std::uint32_t& w) { asm("ld.global.u32 %0, [%1];" : "=r"(w) : "l"(at)); }
__device__ inline void load_global(std::uint64_t at, uint2& w) {
    asm("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(w.x), "=r"(w.y) : "l"(at));
}
__device__ inline void load_global(std::uint64_t at, uint4& w) {
    asm("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w) : "l"(at));
}

__device__ inline void store_global_if(bool p, std::uint64_t at, std::uint32_t w) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p st.global.u32 [%1], %2;\n\t}"
                 :: "r"(static_cast<unsigned>(p)), "l"(at), "r"(w) : "memory");
}
__device__ inline void store_global_if(bool p, std::uint64_t at, uint2 w) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p st.global.v2.u32 [%1], {%2, %3};\n\t}"
                 :: "r"(static_cast<unsigned>(p)), "l"(at), "r"(w.x), "r"(w.y) : "memory");
}
__device__ inline void store_global_if(bool p, std::uint64_t at, uint4 w) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t@p st.global.v4.u32 [%1], {%2, %3, %4, %5};\n\t}"
                 :: "r"(static_cast<unsigned>(p)), "l"(at), "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w) : "memory");
}

}  // namespace fastmedian::kernels
