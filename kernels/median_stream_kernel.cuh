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

#include "device_sms.cuh"
#include "fastmedian/image.hpp"
#include "float_keys.cuh"
#include "lane_rows.cuh"
#include "median_args.cuh"
#include "median_lanes.cuh"
#include "overlapped_launch.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"
#include "stream_strips.cuh"

namespace fastmedian::kernels::stream {

// How a lane loads a row's four pixels (a word, W) and makes them keys: packed policies
// (kStrips 2) hold the upper strip's pixel of a column in a key's low half and the lower
// strip's in its high half; F32Keys (kStrips 1) one strip's on 32-bit keys. `bad` (WholeF32Keys
// only) turns nonzero unless the pixels are whole numbers 0..65535. Pixels<T> gives a word's
// pixels as bits (word, pixel; the constant's bits from its key), and how an edge lane's word
// takes pixel q from pixel s[q] of the word it loads (s packed by picks()): 8- and 16-bit
// pixels load the word whole and `pick` permutes its bytes a step later; floats load each
// pixel on its own (`load`), so that no select waits on them.
template <class T> struct Pixels;
template <> struct Pixels<std::uint8_t> {
    using W = std::uint32_t;
    __device__ static std::uint32_t constant_bits(std::uint32_t key) { return key & 0xFFu; }
    __device__ static std::uint32_t bits(std::uint8_t v) { return v; }
    __device__ static W word(const std::uint32_t (&p)[4]) { return p[0] | p[1] << 8 | p[2] << 16 | p[3] << 24; }
    __device__ static std::uint8_t pixel(W w, int q) { return static_cast<std::uint8_t>(w >> (8 * q)); }
    __device__ static std::uint32_t picks(const int (&s)[4]) { return s[0] | s[1] << 4 | s[2] << 8 | s[3] << 12; }
    __device__ static W load(std::uint64_t at, std::uint32_t) { W w; load_global(at, w); return w; }
    __device__ static W pick(W n, std::uint32_t p) { return __byte_perm(n, 0, p); }
};
template <> struct Pixels<std::uint16_t> {
    using W = uint2;
    __device__ static std::uint32_t constant_bits(std::uint32_t key) { return key & 0xFFFFu; }
    __device__ static std::uint32_t bits(std::uint16_t v) { return v; }
    __device__ static W word(const std::uint32_t (&p)[4]) { return {p[0] | p[1] << 16, p[2] | p[3] << 16}; }
    __device__ static std::uint16_t pixel(W w, int q) {
        return static_cast<std::uint16_t>((q < 2 ? w.x : w.y) >> (16 * (q & 1)));
    }
    // The byte_perm selectors of pixels 0, 1 (low half) and 2, 3 (high half).
    __device__ static std::uint32_t picks(const int (&s)[4]) {
        auto two = [](int a, int b) { return (2 * a * 0x11 + 0x10) | (2 * b * 0x11 + 0x10) << 8; };
        return two(s[0], s[1]) | two(s[2], s[3]) << 16;
    }
    __device__ static W load(std::uint64_t at, std::uint32_t) { W w; load_global(at, w); return w; }
    __device__ static W pick(W n, std::uint32_t p) { return {__byte_perm(n.x, n.y, p), __byte_perm(n.x, n.y, p >> 16)}; }
};
template <> struct Pixels<float> {
    using W = uint4;  // the pixels' bits
    __device__ static std::uint32_t constant_bits(std::uint32_t key) { return key_to_float_bits(key); }
    __device__ static std::uint32_t bits(float v) { return __float_as_uint(v); }
    __device__ static W word(const std::uint32_t (&p)[4]) { return {p[0], p[1], p[2], p[3]}; }
    __device__ static float pixel(W w, int q) {
        return __uint_as_float(q == 0 ? w.x : q == 1 ? w.y : q == 2 ? w.z : w.w);
    }
    __device__ static std::uint32_t picks(const int (&s)[4]) { return s[0] | s[1] << 2 | s[2] << 4 | s[3] << 6; }
    __device__ static W load(std::uint64_t at, std::uint32_t p) {
        W w;
        load_global(at + 4 * (p & 3), w.x);
        load_global(at + 4 * (p >> 2 & 3), w.y);
        load_global(at + 4 * (p >> 4 & 3), w.z);
        load_global(at + 4 * (p >> 6 & 3), w.w);
        return w;
    }
    __device__ static W pick(W n, std::uint32_t) { return n; }
};

// The word of every pixel the constant.
template <class T>
__device__ __forceinline__ typename Pixels<T>::W fill(std::uint32_t key) {
    const std::uint32_t b = Pixels<T>::constant_bits(key);
    return Pixels<T>::word({b, b, b, b});
}

// Pixels x .. x + 3 of row y through the border, for the lanes at the image's sides that the
// lanes beside them cannot serve (segment). It waits for its loads, where a whole load is read
// a step later, so it is kept to these lanes and out of the loops' code.
template <class T>
__device__ __noinline__ typename Pixels<T>::W gather_word(const PlanesArgs& a, const char* plane, int x, int y) {
    const std::int64_t sy = border_index(y, a.height, a.border);
    if (sy < 0) return fill<T>(a.outside_key);
    const T* row = reinterpret_cast<const T*>(plane + sy * a.src_pitch);
    std::uint32_t p[4];
    for (int q = 0; q < 4; ++q) {
        const std::int64_t sx = border_index(x + q, a.width, a.border);
        p[q] = sx < 0 ? Pixels<T>::constant_bits(a.outside_key) : Pixels<T>::bits(row[sx]);
    }
    return Pixels<T>::word(p);
}

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

// What a warp's loads and stores test: nothing (its rows and words all lie in the image), its
// edge lanes' (its rows lie in the image, and every lane's word loads whole: LaneWord), or rows
// and words through the border.
enum class Reach { inside, sides, any };

// Where a lane at word x (pixels x .. x + 3) loads. It loads its word whole where it lies in
// the image. At the sides, the pixels past the edge that outputs read (the word left of column
// 0, and the word from column `width` where that is a multiple of 4) come through the border
// from the word beside them: the edge lane loads that word and takes pixel q from its pixel
// s[q] (Pixels' load and pick). Lanes further right load what they may, since no output reads
// them. Only where neither serves (the wrapped border, a right edge not a multiple of 4 and
// the word after it, images narrower than 4) do lanes gather their pixels (gather_word).
struct LaneWord {
    bool edge, whole;
    int column;           // where a whole word loads
    std::uint32_t picks;  // s, packed (Pixels' picks); s[q] = q but in edge lanes
    template <class P>
    __device__ LaneWord(const PlanesArgs& a, int x, P) {
        const int last_whole = (static_cast<int>(a.width) & ~3) - 4;  // the last whole word of a row
        const bool edges = a.border != kWrap && last_whole >= 0;
        const bool left = edges && x == -4, right = edges && x == a.width && x >= 4;
        const bool past = last_whole >= 0 && x >= a.width + 4;
        edge = left || right;
        whole = (x >= 0 && x + 4 <= a.width) || edge || past;
        column = left ? 0 : right || past ? last_whole : x;
        int s[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {  // unread pixels clamped into the word
            const int from = static_cast<int>(left ? border_index(q - 4, a.width, a.border)
                                                   : border_index(a.width + q, a.width, a.border) - last_whole);
            s[q] = edge ? ::min(3, ::max(0, from)) : q;
        }
        picks = P::picks(s);
    }
};

template <class Win, Reach kReach>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n);

// Output rows ya .. ya + n - 1 (n even) and, with two strips, yb .. yb + n - 1, of the 120
// columns from x + 4 (x: lane 0's word), in this plane. WholeF32Keys hands the rows from the
// first step whose pixels (any lane's) are not all whole numbers 0..65535 to F32Keys (f32_rows):
// the rows before it needed only whole numbers.
template <class Win, class K, Reach kReach>
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
    constexpr bool kInside = kReach == Reach::inside, kRowsIn = kReach != Reach::any;
    const LaneWord lw(a, x, K{});
    const bool constant = a.border == kConstant;
    // An edge lane's word a step after its load, when the row's keys are made (the others' picks
    // leave theirs as it is); the sides' warps take no constant border.
    auto edge = [&](W w) -> W {
        if constexpr (kInside) return w;
        if constexpr (kRowsIn) return K::pick(w, lw.picks);
        return lw.edge && constant ? fill<T>(a.outside_key) : K::pick(w, lw.picks);
    };
    const int column = kInside ? x : lw.column;
    const LaneRows src(plane + column * static_cast<int>(sizeof(T)), a.src_pitch);  // rows inside
    const LaneRows dst(out_plane + x * static_cast<int>(sizeof(T)), a.dst_pitch);
    auto word = [&](int y) -> W {
        if constexpr (kInside) {
            W w;
            load_global(src.at(y), w);
            return w;
        } else if constexpr (kRowsIn) {
            return K::load(src.at(y), lw.picks);
        } else {
            if (!lw.whole) return gather_word<T>(a, plane, x, y);
            std::int64_t sy = y;
            if (static_cast<unsigned>(y) >= static_cast<unsigned>(a.height)) {
                sy = border_index(y, a.height, a.border);
                if (sy < 0) return fill<T>(a.outside_key);
            }
            const T* row = reinterpret_cast<const T*>(plane + sy * a.src_pitch);
            return K::load(reinterpret_cast<std::uint64_t>(row + lw.column), lw.picks);
        }
    };
    // Row i of the strips.
    auto store = [&](int i, W wa, W wb) {
        if constexpr (kRowsIn) {  // (sides: whole words up to the right edge)
            const bool put = kInside ? stores : stores && x < a.width;
            store_global_if(put, dst.at(ya + i), wa);
            if constexpr (kTwo) store_global_if(put, dst.at(yb + i), wb);
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
    auto edge_b = [&](W w) { return kTwo ? edge(w) : w; };
    auto keys = [&](int y, std::uint32_t (&k)[4]) { K::keys(edge(word(ya + y)), edge_b(word_b(y)), k, bad); };
    // WholeF32Keys: whether the rows from step i on go to F32Keys, and that.
    auto hand_over = [&](int i) {
        if constexpr (std::is_same_v<K, WholeF32Keys>) {
            if (__any_sync(~0u, bad)) {
                f32_rows<Win, kReach>(a, plane, out_plane, x0, ya + i, yb + i, n - i);
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
        K::keys(edge(na4), edge_b(nb4), k4, bad);
        K::keys(edge(na5), edge_b(nb5), k5, bad);
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
template <class Win, Reach kReach>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n) {
    if (yb == ya + n) {
        segment<Win, F32Keys, kReach>(a, plane, out_plane, x0, ya, ya, 2 * n);
    } else {
        segment<Win, F32Keys, kReach>(a, plane, out_plane, x0, ya, ya, n);
        segment<Win, F32Keys, kReach>(a, plane, out_plane, x0, yb, yb, n);
    }
}

template <class Win, class K>
__global__ void __launch_bounds__(32 * Win::kWarps, Win::kMinBlocks)
median_stream(const __grid_constant__ PlanesArgs a, Strips strips) {
    wait_for_previous_grid();
    constexpr int R = Win::kSize / 2;
    // The grid's first row of blocks takes the plane's last strips: their rows reach past the
    // bottom, through the border (Reach::any, several times as slow), so they start first and
    // end within the grid rather than after it. With the edge lanes of LaneWord, faster at 5x5
    // and 7x7 for every type than side lanes that gathered their pixels. The edge lanes alone
    // gained less: ncu showed the SMs idle for the last of the grid, waiting on those slow last
    // rows. This order alone changed nothing; the 3x3 (median3x3_stream.cu) lost a little with
    // it and keeps its own (docs/notebook/gpu-median-h100-2026-11-27-edges.md).
    const int by = blockIdx.y == 0 ? strips.rows - 1 : blockIdx.y - 1;
    const int n = strips.rows_of(by), ya = strips.first_row(by);
    const int x = (blockIdx.x * Win::kWarps + (threadIdx.x >> 5)) * kWarpCols - 4;  // lane 0's word
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    // Warps whose words and rows all lie in the image load and store without tests; those at the
    // sides whose rows do, with their edge lanes' picks (LaneWord; not for the constant border,
    // which would need a select more a word).
    if (x + 4 >= a.width) return;
    const bool rows_in = ya >= R && ya + 2 * n + R <= a.height && lane_rows_serve(a);
    if (rows_in && x >= 0 && x + 32 * 4 <= a.width)
        segment<Win, K, Reach::inside>(a, plane, out_plane, x, ya, ya + n, n);
    else if (rows_in && a.border != kConstant && __all_sync(~0u, LaneWord(a, x + 4 * (threadIdx.x & 31), K{}).whole))
        segment<Win, K, Reach::sides>(a, plane, out_plane, x, ya, ya + n, n);
    else
        segment<Win, K, Reach::any>(a, plane, out_plane, x, ya, ya + n, n);
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
