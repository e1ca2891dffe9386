// The streaming median kernels' machinery (median_stream.cuh), instantiated for a window by
// median5x5_stream.cu and median7x7_stream.cu. A window type (Win) gives:
//   kSize; kWarps, kBlockCols, kMinBlocks (a block's warps, side by side, kWarpCols columns each,
//   and blocks an SM to fit);
//   kMinStrip, kLastStrip, kLongStrip (rows of strips: stream_strips.cuh);
//   Columns<L>: a lane's four columns sorted for two output rows at a time, the rows they share
//     sorted once: start(k) from rows -R .. R - 1 (R = kSize / 2) of the first step, then per
//     step first(ka, kb, c) (ka, kb: rows y + R, y + R + 1; c: the columns of row y) and
//     second(kb, c) (of row y + 1);
//   row_medians<L>(c, m): the medians of a lane's four output columns, the columns and merged
//     pairs of columns either side taken from the lanes beside it by shuffle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "border_index.cuh"
#include "device_sms.cuh"
#include "fastmedian/image.hpp"
#include "float_keys.cuh"
#include "lane_rows.cuh"
#include "median_args.cuh"
#include "median_lanes.cuh"
#include "order_key.cuh"
#include "overlapped_launch.cuh"
#include "stream_strips.cuh"

namespace fastmedian::kernels::stream {

// How a lane loads a row's four pixels (a word, W) and makes them keys: packed policies
// (kStrips 2) hold the upper strip's pixel of a column in a key's low half and the lower
// strip's in its high half; F32Keys (kStrips 1) one strip's on 32-bit keys. `bad` (WholeF32Keys
// only) turns nonzero unless the pixels are whole numbers 0..65535.
template <class T> struct Pixels;
template <> struct Pixels<std::uint8_t> {
    using W = std::uint32_t;
    __device__ static W fill(std::uint32_t key) { return (key & 0xFFu) * 0x01010101u; }
    __device__ static W gather(const std::uint8_t* row, const int (&sx)[4], std::uint32_t key) {
        W w = 0;
#pragma unroll
        for (int q = 0; q < 4; ++q) w |= static_cast<W>(sx[q] < 0 ? key & 0xFFu : row[sx[q]]) << (8 * q);
        return w;
    }
    __device__ static std::uint8_t pixel(W w, int q) { return static_cast<std::uint8_t>(w >> (8 * q)); }
};
template <> struct Pixels<std::uint16_t> {
    using W = uint2;
    __device__ static W fill(std::uint32_t key) { return {(key & 0xFFFFu) * 0x10001u, (key & 0xFFFFu) * 0x10001u}; }
    __device__ static W gather(const std::uint16_t* row, const int (&sx)[4], std::uint32_t key) {
        std::uint32_t p[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) p[q] = sx[q] < 0 ? key & 0xFFFFu : row[sx[q]];
        return {p[0] | p[1] << 16, p[2] | p[3] << 16};
    }
    __device__ static std::uint16_t pixel(W w, int q) {
        return static_cast<std::uint16_t>((q < 2 ? w.x : w.y) >> (16 * (q & 1)));
    }
};
template <> struct Pixels<float> {
    using W = uint4;  // the pixels' bits
    __device__ static W fill(std::uint32_t key) {
        const std::uint32_t b = key_to_float_bits(key);
        return {b, b, b, b};
    }
    __device__ static W gather(const float* row, const int (&sx)[4], std::uint32_t key) {
        std::uint32_t p[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) p[q] = sx[q] < 0 ? key_to_float_bits(key) : __float_as_uint(row[sx[q]]);
        return {p[0], p[1], p[2], p[3]};
    }
    __device__ static float pixel(W w, int q) {
        return __uint_as_float(q == 0 ? w.x : q == 1 ? w.y : q == 2 ? w.z : w.w);
    }
};

struct U8Keys : Pixels<std::uint8_t> {
    using T = std::uint8_t;
    using L = PackedLanes;
    static constexpr int kStrips = 2;
    // A u8 key is the pixel in both bytes of its half (v * 0x101), one PRMT a column.
    __device__ static void keys(W a, W b, std::uint32_t (&k)[4], std::uint32_t&) {
#pragma unroll
        for (int j = 0; j < 4; ++j) k[j] = __byte_perm(a, b, j * 0x11 + (4 + j) * 0x1100);
    }
    __device__ static void words(const std::uint32_t (&m)[4], W& a, W& b) {
        const std::uint32_t lo = __byte_perm(m[0], m[1], 0x6240), hi = __byte_perm(m[2], m[3], 0x6240);
        a = __byte_perm(lo, hi, 0x5410);
        b = __byte_perm(lo, hi, 0x7632);
    }
};
struct U16Keys : Pixels<std::uint16_t> {
    using T = std::uint16_t;
    using L = PackedLanes;
    static constexpr int kStrips = 2;
    __device__ static void keys(W a, W b, std::uint32_t (&k)[4], std::uint32_t&) {
        k[0] = __byte_perm(a.x, b.x, 0x5410);
        k[1] = __byte_perm(a.x, b.x, 0x7632);
        k[2] = __byte_perm(a.y, b.y, 0x5410);
        k[3] = __byte_perm(a.y, b.y, 0x7632);
    }
    __device__ static void words(const std::uint32_t (&m)[4], W& a, W& b) {
        a = {__byte_perm(m[0], m[1], 0x5410), __byte_perm(m[2], m[3], 0x5410)};
        b = {__byte_perm(m[0], m[1], 0x7632), __byte_perm(m[2], m[3], 0x7632)};
    }
};
struct WholeF32Keys : Pixels<float> {
    using T = float;
    using L = PackedLanes;
    static constexpr int kStrips = 2;
    __device__ static void keys(W a, W b, std::uint32_t (&k)[4], std::uint32_t& bad) {
        k[0] = WholeFloatKey::packed(__uint_as_float(a.x), __uint_as_float(b.x), bad);
        k[1] = WholeFloatKey::packed(__uint_as_float(a.y), __uint_as_float(b.y), bad);
        k[2] = WholeFloatKey::packed(__uint_as_float(a.z), __uint_as_float(b.z), bad);
        k[3] = WholeFloatKey::packed(__uint_as_float(a.w), __uint_as_float(b.w), bad);
    }
    __device__ static void words(const std::uint32_t (&m)[4], W& a, W& b) {
        std::uint32_t lo[4], hi[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            lo[j] = __float_as_uint(WholeFloatKey::from_key(m[j] & 0xFFFFu));
            hi[j] = __float_as_uint(WholeFloatKey::from_key(m[j] >> 16));
        }
        a = {lo[0], lo[1], lo[2], lo[3]};
        b = {hi[0], hi[1], hi[2], hi[3]};
    }
};
struct F32Keys : Pixels<float> {
    using T = float;
    using L = SignedLanes;
    static constexpr int kStrips = 1;
    __device__ static void keys(W a, W, std::uint32_t (&k)[4], std::uint32_t&) {
        k[0] = SignedFloatKey::to_key(a.x);
        k[1] = SignedFloatKey::to_key(a.y);
        k[2] = SignedFloatKey::to_key(a.z);
        k[3] = SignedFloatKey::to_key(a.w);
    }
    __device__ static void words(const std::uint32_t (&m)[4], W& a, W&) {
        a = {__float_as_uint(SignedFloatKey::from_key(m[0])), __float_as_uint(SignedFloatKey::from_key(m[1])),
             __float_as_uint(SignedFloatKey::from_key(m[2])), __float_as_uint(SignedFloatKey::from_key(m[3]))};
    }
};

template <class Win, bool kInside>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n);

// Output rows ya .. ya + n - 1 (n even) and, with two strips, yb .. yb + n - 1, of the 120
// columns from x + 4 (x: lane 0's word), in this plane. WholeF32Keys hands the rows from the
// first step whose pixels (any lane's) are not all whole numbers 0..65535 to F32Keys (f32_rows):
// the rows before it needed only whole numbers.
template <class Win, class K, bool kInside>
__device__ __forceinline__ void segment(const PlanesArgs& a, const char* plane, char* out_plane, const int x0,
                                        const int ya, const int yb, const int n) {
    using T = typename K::T;
    using W = typename K::W;
    using L = typename K::L;
    constexpr int R = Win::kSize / 2;
    constexpr bool kTwo = K::kStrips == 2;
    const int lane = threadIdx.x & 31;
    const int x = x0 + 4 * lane;
    const bool stores = lane >= 1 && lane <= 30;
    // A word past a side of the image, or reaching past its right edge, gathers its four
    // pixels through the border; -1 for the constant.
    const bool plain = kInside || (x >= 0 && x + 4 <= a.width);
    int sx[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) sx[q] = plain ? 0 : static_cast<int>(border_index(x + q, a.width, a.border));
    const LaneRows src(plane + x * static_cast<int>(sizeof(T)), a.src_pitch);  // inside
    const LaneRows dst(out_plane + x * static_cast<int>(sizeof(T)), a.dst_pitch);
    auto word = [&](int y) -> W {
        if constexpr (kInside) {
            W w;
            load_global(src.at(y), w);
            return w;
        } else {
            std::int64_t sy = y;
            if (static_cast<unsigned>(y) >= static_cast<unsigned>(a.height)) {
                sy = border_index(y, a.height, a.border);
                if (sy < 0) return K::fill(a.outside_key);
            }
            const T* row = reinterpret_cast<const T*>(plane + sy * a.src_pitch);
            if (plain) return *reinterpret_cast<const W*>(row + x);
            return K::gather(row, sx, a.outside_key);
        }
    };
    // Row i of the strips.
    auto store = [&](int i, W wa, W wb) {
        if constexpr (kInside) {
            store_global_if(stores, dst.at(ya + i), wa);
            if constexpr (kTwo) store_global_if(stores, dst.at(yb + i), wb);
        } else {
            auto one = [&](int y, W w) {
                if (!stores || y >= a.height || x >= a.width) return;
                T* row = reinterpret_cast<T*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch);
                if (x + 4 <= a.width) {
                    *reinterpret_cast<W*>(row + x) = w;
                } else {
#pragma unroll
                    for (int q = 0; q < 4; ++q)
                        if (x + q < a.width) row[x + q] = K::pixel(w, q);
                }
            };
            one(ya + i, wa);
            if constexpr (kTwo) one(yb + i, wb);
        }
    };
    std::uint32_t bad = 0;
    auto word_b = [&](int y) { return kTwo ? word(yb + y) : W{}; };
    auto keys = [&](int y, std::uint32_t (&k)[4]) { K::keys(word(ya + y), word_b(y), k, bad); };
    // WholeF32Keys: whether the rows from step i on go to F32Keys, and that.
    auto hand_over = [&](int i) {
        if constexpr (std::is_same_v<K, WholeF32Keys>) {
            if (__any_sync(~0u, bad)) {
                f32_rows<Win, kInside>(a, plane, out_plane, x0, ya + i, yb + i, n - i);
                return true;
            }
        }
        return false;
    };

    // A step outputs rows y and y + 1 of each strip from rows y - R .. y + R + 1, the rows
    // both share sorted once (Win::Columns). The next step's rows are loaded before this
    // step's networks.
    typename Win::template Columns<L> cols;
    {
        std::uint32_t k[2 * R][4];
#pragma unroll
        for (int r = 0; r < 2 * R; ++r) keys(r - R, k[r]);
        cols.start(k);
    }
    W na4 = word(ya + R), nb4 = word_b(R), na5 = word(ya + R + 1), nb5 = word_b(R + 1);
#pragma unroll 1
    for (int i = 0; i < n; i += 2) {
        std::uint32_t k4[4], k5[4];
        K::keys(na4, nb4, k4, bad);
        K::keys(na5, nb5, k5, bad);
        if (hand_over(i)) return;
        if (i + 2 < n) {
            na4 = word(ya + i + R + 2);
            nb4 = word_b(i + R + 2);
            na5 = word(ya + i + R + 3);
            nb5 = word_b(i + R + 3);
        }
        // The columns of output row y (k4: row y + R), then, after its medians so that fewer
        // registers are live, of row y + 1 (k5: row y + R + 1).
        std::uint32_t c[4][Win::kSize], m[4];
        W wa, wb;
        cols.first(k4, k5, c);
        Win::template row_medians<L>(c, m);
        K::words(m, wa, wb);
        store(i, wa, wb);
        cols.second(k5, c);
        Win::template row_medians<L>(c, m);
        K::words(m, wa, wb);
        store(i + 1, wa, wb);
    }
}

// The strips' n rows from ya and from yb on 32-bit keys: the strips at once where they meet
// (a warp whose first rows have fractions), else one after the other. Not inlined, so that
// the packed loop it leaves keeps its registers.
template <class Win, bool kInside>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n) {
    if (yb == ya + n) {
        segment<Win, F32Keys, kInside>(a, plane, out_plane, x0, ya, ya, 2 * n);
    } else {
        segment<Win, F32Keys, kInside>(a, plane, out_plane, x0, ya, ya, n);
        segment<Win, F32Keys, kInside>(a, plane, out_plane, x0, yb, yb, n);
    }
}

template <class Win, class K>
__global__ void __launch_bounds__(32 * Win::kWarps, Win::kMinBlocks)
median_stream(const __grid_constant__ PlanesArgs a, Strips strips) {
    wait_for_previous_grid();
    constexpr int R = Win::kSize / 2;
    const int n = strips.rows_of(blockIdx.y), ya = strips.first_row(blockIdx.y);
    const int x = (blockIdx.x * Win::kWarps + (threadIdx.x >> 5)) * kWarpCols - 4;  // lane 0's word
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    // Warps whose words and rows all lie in the image load and store without tests.
    if (x >= 0 && x + 32 * 4 <= a.width && ya >= R && ya + 2 * n + R <= a.height && lane_rows_serve(a))
        segment<Win, K, true>(a, plane, out_plane, x, ya, ya + n, n);
    else if (x + 4 < a.width)
        segment<Win, K, false>(a, plane, out_plane, x, ya, ya + n, n);
}

template <class Win, class K>
cudaError_t launch_keys(const PlanesArgs& a, cudaStream_t stream) {
    int sms = 0;
    const cudaError_t e = current_sm_count(sms);
    if (e != cudaSuccess) return e;
    const Strips strips = strips_for<Win>(a, sms);
    if (strips.rows > 65535) return cudaErrorInvalidConfiguration;
    const dim3 grid(static_cast<unsigned>(block_columns<Win>(a)), static_cast<unsigned>(strips.rows), a.planes);
    return launch_overlapped(median_stream<Win, K>, grid, dim3(32 * Win::kWarps), 0, stream, a, strips);
}

// The launch for planes of this type (serves(type, a) must hold).
template <class Win>
cudaError_t launch(PixelType type, const PlanesArgs& a, cudaStream_t stream) {
    switch (type) {
        case PixelType::u8: return launch_keys<Win, U8Keys>(a, stream);
        case PixelType::u16: return launch_keys<Win, U16Keys>(a, stream);
        case PixelType::f32: return launch_keys<Win, WholeF32Keys>(a, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels::stream
