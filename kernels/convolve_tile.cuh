// Device helpers the convolution kernels share: reading a pixel through the border mode,
// writing runs of results in the output type, and the tile loop of kernels that keep their
// blocks resident. Device code only (included by .cu files).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "convolve_args.cuh"
#include "device_sms.cuh"
#include "semantics/border_index.hpp"
#include "semantics/convolve_output.hpp"

namespace fastmedian::kernels {

constexpr int kConvolveThreads = 256;  // 32 x 8 per block

// Byte offset of source row y of a plane as the border mode reads it, or -1 for the constant.
__device__ __forceinline__ long long convolve_row_offset(const ConvolveArgs& a, int y) {
    const std::int64_t m = border_index(y, a.height, a.border);
    return m < 0 ? -1 : static_cast<long long>(m * a.src_pitch);
}

// Column x as the border mode reads it, or -1 for the constant.
__device__ __forceinline__ int convolve_column(const ConvolveArgs& a, int x) {
    return static_cast<int>(border_index(x, a.width, a.border));
}

// An 8- or 16-bit pixel value as a float, exactly, without the slower integer conversion:
// 2^23 + v has v in its low mantissa bits.
__device__ __forceinline__ float small_to_float(unsigned v) {
    return __int_as_float(0x4B000000u | v) - 8388608.0f;
}

// The pixel at byte offset `row` and column `col` of `plane` as a float; the constant where
// either is -1.
template <class T>
__device__ __forceinline__ float convolve_read(const ConvolveArgs& a, const char* plane,
                                               long long row, int col) {
    if (row < 0 || col < 0) return a.outside;
    const T v = __ldg(reinterpret_cast<const T*>(plane + row) + col);
    if constexpr (sizeof(T) < 4) return small_to_float(v);
    else return v;
}

// ConvolveStore<Out>::convert for the integer types, the same bits from float adds alone (the
// float <-> int conversions run at a quarter of the rate): for c in [0, 65535], round half up
// is floor(c + 0.5), which c + 0.5 rounded toward zero keeps (integers are floats there), and
// adding 2^23 toward zero leaves that integer in the low mantissa bits of the result.
template <class Out>
__device__ __forceinline__ std::uint32_t convolve_round_bits(float v) {
    constexpr float kMax = sizeof(Out) == 1 ? 255.0f : 65535.0f;
    const float c = fminf(fmaxf(v, 0.0f), kMax);
    return __float_as_uint(__fadd_rz(__fadd_rz(c, 0.5f), 8388608.0f));
}

// An output ready to store: the float, or the integer in the low bits.
template <class Out>
__device__ __forceinline__ auto convolve_out_value(float v) {
    if constexpr (sizeof(Out) == 4) return ConvolveStore<Out>::convert(v);
    else return convolve_round_bits<Out>(v);
}

template <class Out>
__device__ __forceinline__ void store4_as(char* row, int x, int width, const float (&v)[4]) {
    Out* p = reinterpret_cast<Out*>(row) + x;
    const auto o0 = convolve_out_value<Out>(v[0]), o1 = convolve_out_value<Out>(v[1]),
               o2 = convolve_out_value<Out>(v[2]), o3 = convolve_out_value<Out>(v[3]);
    if (x + 4 <= width && reinterpret_cast<std::uintptr_t>(p) % (4 * sizeof(Out)) == 0) {
        // Integers: the low byte (8-bit) or two bytes (16-bit) of each value, side by side.
        if constexpr (sizeof(Out) == 1) {
            *reinterpret_cast<std::uint32_t*>(p) =
                __byte_perm(__byte_perm(o0, o1, 0x0040), __byte_perm(o2, o3, 0x0040), 0x5410);
        } else if constexpr (sizeof(Out) == 2) {
            *reinterpret_cast<uint2*>(p) = make_uint2(__byte_perm(o0, o1, 0x5410), __byte_perm(o2, o3, 0x5410));
        } else {
            *reinterpret_cast<float4*>(p) = make_float4(o0, o1, o2, o3);
        }
        return;
    }
    const decltype(o0) o[4] = {o0, o1, o2, o3};
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (x + i < width) p[i] = static_cast<Out>(o[i]);
}

// Writes v[0..3] to pixels x..x+3 of row y of plane z (those inside the image), as float or
// as T.
template <class T>
__device__ __forceinline__ void convolve_store4(const ConvolveArgs& a, long long z, int y, int x,
                                                const float (&v)[4]) {
    if (y >= a.height || x >= a.width) return;
    char* row = static_cast<char*>(a.dst) + z * a.dst_plane_stride + y * a.dst_pitch;
    if (a.float_out) store4_as<float>(row, x, a.width, v);
    else store4_as<T>(row, x, a.width, v);
}

// How many blocks of `kernel` the current device runs at once (at least 1 per SM): the grid
// of a kernel that loops over its tiles, so that no last, partly filled wave of blocks is left.
template <class Kernel>
inline int convolve_resident_blocks(Kernel kernel, int threads, std::size_t shared) {
    int sms = 0, per_sm = 0;
    if (current_sm_count(sms) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared) != cudaSuccess)
        return 0;  // the launch reports the error
    return (per_sm > 0 ? per_sm : 1) * sms;
}

// The tile of a tile loop: index t of tiles_x x tiles_y tiles per plane.
struct ConvolveTile {
    long long z;
    int tx, ty;
    __device__ ConvolveTile(long long t, int tiles_x, int tiles_y)
        : z(t / (static_cast<long long>(tiles_x) * tiles_y)),
          tx(static_cast<int>(t % tiles_x)),
          ty(static_cast<int>((t / tiles_x) % tiles_y)) {}
};

}  // namespace fastmedian::kernels
