#include "median5x5_stream.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "border_index.cuh"
#include "generated/median_stream/network5.cuh"
#include "float_keys.cuh"
#include "median_lanes.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels::stream5 {

namespace {

// Blocks of kWarps warps side by side, kMinBlocks an SM (111-118 registers; 5 blocks spill
// and ran 3-8% slower, 2-warp blocks within 1%); a grid of about kWaves waves of strips of at
// least kMinStrip rows, its last kLastShare of the rows in strips of kLastStrip rows. H100,
// 4096^2, against strips of 8 rows throughout: u8 351.6 -> 369.3, u16 325.8 -> 347.2; other
// strips 6 to 12, last strips 2 to 6 and shares 0.1 to 0.35 within 1%.
constexpr int kWarps = 4;
constexpr int kMinBlocks = 4;
constexpr int kWaves = 8;
constexpr int kMinStrip = 8;
constexpr int kLastStrip = 4;
constexpr float kLastShare = 0.2f;
constexpr int kWarpCols = 4 * 30;           // output columns of a warp (lanes 1..30)

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

// The four packed medians of this lane's output columns from its columns' sorted rows: the
// columns either side and the first pair from the lanes beside it.
template <class L>
__device__ __forceinline__ void row_medians(const std::uint32_t (&col)[4][5], std::uint32_t (&m)[4]) {
    using Net = Network<L>;
    std::uint32_t c[8][5];
#pragma unroll
    for (int r = 0; r < 5; ++r) {
#pragma unroll
        for (int j = 0; j < 4; ++j) c[2 + j][r] = col[j][r];
        c[0][r] = __shfl_up_sync(~0u, col[2][r], 1);
        c[6][r] = __shfl_down_sync(~0u, col[0][r], 1);
        c[7][r] = __shfl_down_sync(~0u, col[1][r], 1);
    }
    std::uint32_t p12[10], p34[10], p56[10];
    Net::pair(c[3], c[4], p34);
    Net::pair(c[5], c[6], p56);
#pragma unroll
    for (int r = 0; r < 10; ++r) p12[r] = __shfl_up_sync(~0u, p56[r], 1);
    Net::medians(c, p12, p34, p56, m);
}

// The strips of the grid's rows of blocks: `head` rows of blocks of `first` rows a strip, then
// rows of blocks of `last` rows. Blocks start in order, so the short strips run last and the
// GPU's last blocks end close together.
struct Strips {
    int first, head, last;  // rows (even)
};

// Output rows ya .. ya + n - 1 (n even) and, with two strips, yb .. yb + n - 1, of the 120
// columns from x + 4 (x: lane 0's word), in this plane. WholeF32Keys hands the rows from the
// first step whose pixels (any lane's) are not all whole numbers 0..65535 to F32Keys, a strip
// at a time: the rows before it needed only whole numbers.
template <bool kInside>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n);

template <class K, bool kInside>
__device__ __forceinline__ void segment(const PlanesArgs& a, const char* plane, char* out_plane, const int x0,
                                        const int ya, const int yb, const int n) {
    using T = typename K::T;
    using W = typename K::W;
    using Net = Network<typename K::L>;
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
    auto word = [&](int y) -> W {
        std::int64_t sy = y;
        if (!kInside && static_cast<unsigned>(y) >= static_cast<unsigned>(a.height)) {
            sy = border_index(y, a.height, a.border);
            if (sy < 0) return K::fill(a.outside_key);
        }
        const T* row = reinterpret_cast<const T*>(plane + sy * a.src_pitch);
        if (plain) return *reinterpret_cast<const W*>(row + x);
        return K::gather(row, sx, a.outside_key);
    };
    // Row i of the strips.
    const std::int64_t out_to_b = (yb - ya) * a.dst_pitch;
    char* const out = out_plane + ya * a.dst_pitch + x * static_cast<int>(sizeof(T));
    auto store = [&](int i, W wa, W wb) {
        if constexpr (kInside) {
            if (stores) {
                *reinterpret_cast<W*>(out + i * a.dst_pitch) = wa;
                if constexpr (kTwo) *reinterpret_cast<W*>(out + i * a.dst_pitch + out_to_b) = wb;
            }
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
                f32_rows<kInside>(a, plane, out_plane, x0, ya + i, yb + i, n - i);
                return true;
            }
        }
        return false;
    };

    // A step outputs rows y and y + 1 of each strip from rows y - 2 .. y + 3. Carried per
    // column: row y - 2, rows y - 1 and y sorted, row y, row y + 1. The next step's rows are
    // loaded before this step's networks.
    std::uint32_t r0[4], pair[4][2], ry[4], r3[4];
    {
        std::uint32_t k1[4];
        keys(-2, r0);
        keys(-1, k1);
        keys(0, ry);
        keys(1, r3);
#pragma unroll
        for (int j = 0; j < 4; ++j) Net::sort2(k1[j], ry[j], pair[j]);
    }
    W na4 = word(ya + 2), nb4 = word_b(2), na5 = word(ya + 3), nb5 = word_b(3);
    const char* next = plane + (ya + 4) * a.src_pitch + x * static_cast<int>(sizeof(T));
    const std::int64_t to_b = (yb - ya) * a.src_pitch;
#pragma unroll 1
    for (int i = 0; i < n; i += 2) {
        std::uint32_t k4[4], k5[4];
        K::keys(na4, nb4, k4, bad);
        K::keys(na5, nb5, k5, bad);
        if (hand_over(i)) return;
        if (i + 2 < n) {
            if constexpr (kInside) {  // rows a pitch apart from a pointer that steps
                na4 = *reinterpret_cast<const W*>(next);
                na5 = *reinterpret_cast<const W*>(next + a.src_pitch);
                if constexpr (kTwo) {
                    nb4 = *reinterpret_cast<const W*>(next + to_b);
                    nb5 = *reinterpret_cast<const W*>(next + to_b + a.src_pitch);
                }
                next += 2 * a.src_pitch;
            } else {
                na4 = word(ya + i + 4);
                nb4 = word_b(i + 4);
                na5 = word(ya + i + 5);
                nb5 = word_b(i + 5);
            }
        }
        // The columns of output row y, then (after its medians, so that fewer registers are
        // live) of row y + 1, from the four rows they share.
        std::uint32_t s4[4][4], c[4][5], m[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            std::uint32_t q[2];
            Net::sort2(r3[j], k4[j], q);
            Net::core4(pair[j], q, s4[j]);
            Net::insert(r0[j], s4[j], c[j]);
            r0[j] = ry[j];
            pair[j][0] = q[0];
            pair[j][1] = q[1];
            ry[j] = k4[j];
            r3[j] = k5[j];
        }
        W wa, wb;
        row_medians<typename K::L>(c, m);
        K::words(m, wa, wb);
        store(i, wa, wb);
#pragma unroll
        for (int j = 0; j < 4; ++j) Net::insert(k5[j], s4[j], c[j]);
        row_medians<typename K::L>(c, m);
        K::words(m, wa, wb);
        store(i + 1, wa, wb);
    }
}

// The strips' n rows from ya and from yb on 32-bit keys: the strips at once where they meet
// (a warp whose first rows have fractions), else one after the other. Not inlined, so that
// the packed loop it leaves keeps its registers.
template <bool kInside>
__device__ __noinline__ void f32_rows(const PlanesArgs& a, const char* plane, char* out_plane, int x0, int ya,
                                      int yb, int n) {
    if (yb == ya + n) {
        segment<F32Keys, kInside>(a, plane, out_plane, x0, ya, ya, 2 * n);
    } else {
        segment<F32Keys, kInside>(a, plane, out_plane, x0, ya, ya, n);
        segment<F32Keys, kInside>(a, plane, out_plane, x0, yb, yb, n);
    }
}

template <class K>
__global__ void __launch_bounds__(32 * kWarps, kMinBlocks) median5x5(const __grid_constant__ PlanesArgs a, Strips strips) {
    const int by = blockIdx.y;
    const int n = by < strips.head ? strips.first : strips.last;
    const int ya = by < strips.head ? 2 * by * strips.first : 2 * (strips.head * strips.first + (by - strips.head) * strips.last);
    const int x = (blockIdx.x * kWarps + (threadIdx.x >> 5)) * kWarpCols - 4;  // lane 0's word
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    // Warps whose words and rows all lie in the image load and store without tests.
    if (x >= 0 && x + 32 * 4 <= a.width && ya >= 2 && ya + 2 * n + 2 <= a.height)
        segment<K, true>(a, plane, out_plane, x, ya, ya + n, n);
    else if (x + 4 < a.width)
        segment<K, false>(a, plane, out_plane, x, ya, ya + n, n);
}

}  // namespace

bool serves(PixelType type, const PlanesArgs& a) {
    const std::int64_t word = 4 * static_cast<std::int64_t>(type == PixelType::u8 ? 1 : type == PixelType::u16 ? 2 : 4);
    auto aligned = [&](std::int64_t v) { return v % word == 0; };
    return aligned(reinterpret_cast<std::intptr_t>(a.src)) && aligned(a.src_pitch) && aligned(a.src_plane_stride) &&
           aligned(reinterpret_cast<std::intptr_t>(a.dst)) && aligned(a.dst_pitch) && aligned(a.dst_plane_stride);
}

// The strips for planes of this height: a grid of about kWaves waves of the GPU's resident
// blocks, its last rows of blocks (kLastShare of the rows) with strips of kLastStrip rows.
Strips strips_for(const PlanesArgs& a, int sms, int blocks) {
    const std::int64_t columns = (a.width + kWarps * kWarpCols - 1) / (kWarps * kWarpCols);
    const std::int64_t slots = std::max<std::int64_t>(1, std::int64_t{sms} * blocks * kWaves / (columns * a.planes));
    Strips s{};
    s.last = kLastStrip;
    const int last_rows = static_cast<int>(a.height * kLastShare) / (2 * s.last) * (2 * s.last);
    std::int64_t first = std::max<std::int64_t>(kMinStrip, (a.height + 2 * slots - 1) / (2 * slots));
    s.first = static_cast<int>(first + first % 2);
    s.head = (a.height - last_rows + 2 * s.first - 1) / (2 * s.first);
    return s;
}

template <class K>
cudaError_t launch_keys(const PlanesArgs& a, cudaStream_t stream) {
    int device = 0, sms = 0, blocks = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, median5x5<K>, 32 * kWarps, 0);
    if (e != cudaSuccess) return e;
    const Strips strips = strips_for(a, sms, std::max(blocks, 1));
    const std::int64_t head_rows = std::int64_t{2} * strips.head * strips.first;
    const std::int64_t rows = strips.head + std::max<std::int64_t>(0, (a.height - head_rows + 2 * strips.last - 1) / (2 * strips.last));
    if (rows > 65535) return cudaErrorInvalidConfiguration;
    const dim3 grid(static_cast<unsigned>((a.width + kWarps * kWarpCols - 1) / (kWarps * kWarpCols)), static_cast<unsigned>(rows), a.planes);
    median5x5<K><<<grid, 32 * kWarps, 0, stream>>>(a, strips);
    return cudaGetLastError();
}

cudaError_t launch(PixelType type, const PlanesArgs& a, cudaStream_t stream) {
    if (!serves(type, a)) return cudaErrorInvalidValue;
    switch (type) {
        case PixelType::u8: return launch_keys<U8Keys>(a, stream);
        case PixelType::u16: return launch_keys<U16Keys>(a, stream);
        case PixelType::f32: return launch_keys<WholeF32Keys>(a, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels::stream5
