// Square masks of 3, 5, 7 and 9: no shared memory. Each warp walks down a strip of the image
// 128 columns wide (4 per lane) and s rows tall (s a multiple of K, chosen on the host so that
// the strips fill the GPU once). It reads every input row of the strip once, 4 pixels per lane
// in one 4-, 8- or 16-byte load, takes the row's halo from the neighbouring lanes by shuffles
// (lanes 0 and 31 read theirs), and adds the row to the K output rows it touches, held in a
// ring of accumulators; the oldest is then complete and written. Rows are loaded ahead of
// their use, so memory latency hides behind the multiply-adds of the rows before, with few
// registers and many warps per SM. Strips that vector loads cannot serve (rows not aligned to
// 4 pixels, a partial strip at the right edge, the constant border beyond the image) read
// pixel by pixel through the border mode, in the same ring. Each output takes its mask rows top
// to bottom, each row's taps left to right (the CPU's order); weights are instruction operands.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "convolve_args.cuh"
#include "convolve_tile.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kStripWidth = 128;  // 32 lanes x 4 columns
constexpr int kWarps = kConvolveThreads / 32;  // per block, each with strips of its own
constexpr unsigned kFullWarp = 0xffffffffu;

template <int K>
struct SquareMask {
    float w[K * K];
};

// small_to_float of the bytes of q that `select` picks (__byte_perm) as the low bytes beside
// 2^23's high ones: one instruction for the integer part.
__device__ __forceinline__ float permuted_to_float(unsigned q, unsigned select) {
    return __uint_as_float(__byte_perm(q, 0x4B000000u, select)) - 8388608.0f;
}

// Four pixels of an aligned address in one load, and as floats.
template <class T> struct Piece;
template <> struct Piece<float> {
    using Raw = float4;
    __device__ static Raw load(const float* p) { return __ldg(reinterpret_cast<const float4*>(p)); }
    __device__ static void to_floats(const Raw& q, float (&v)[4]) {
        v[0] = q.x;
        v[1] = q.y;
        v[2] = q.z;
        v[3] = q.w;
    }
};
template <> struct Piece<std::uint16_t> {
    using Raw = uint2;
    __device__ static Raw load(const std::uint16_t* p) { return __ldg(reinterpret_cast<const uint2*>(p)); }
    __device__ static void to_floats(const Raw& q, float (&v)[4]) {
        v[0] = permuted_to_float(q.x, 0x7610);
        v[1] = permuted_to_float(q.x, 0x7632);
        v[2] = permuted_to_float(q.y, 0x7610);
        v[3] = permuted_to_float(q.y, 0x7632);
    }
};
template <> struct Piece<std::uint8_t> {
    using Raw = unsigned;
    __device__ static Raw load(const std::uint8_t* p) { return __ldg(reinterpret_cast<const unsigned*>(p)); }
    __device__ static void to_floats(const Raw& q, float (&v)[4]) {
#pragma unroll
        for (int i = 0; i < 4; ++i) v[i] = permuted_to_float(q, 0x7650 + i);
    }
};

template <class T>
__device__ __forceinline__ float to_float(T v) {
    if constexpr (sizeof(T) < 4) return small_to_float(v);
    else return v;
}

// Rows by vector loads: lane l holds columns x0 + 4l .. x0 + 4l + 3; lane 0 also reads the R
// columns left of the strip, the other lanes the R right of it (lane 31 uses them), at columns
// mapped through the border mode once per strip. Rows outside the image are mapped per row
// (never to the constant: strips that would need it read pixel by pixel).
template <class T, int R>
struct VectorRows {
    // Rows loaded ahead of their use: 3 x 3 has too little work per row to cover a load alone.
    static constexpr int kAhead = R == 1 ? 3 : 1;
    struct Raw {
        typename Piece<T>::Raw c;
        T halo[R];
    };
    const char* plane;
    int y_first;       // image row of strip row 0
    int x;             // this lane's first column
    int halo[R];       // this lane's halo columns
    const char* next;  // where strip row i (the next to load; rows load in order) lies unmapped

    __device__ __forceinline__ void load(const ConvolveArgs& a, int i, Raw& r) {
        const int y = y_first + i;
        const T* row = reinterpret_cast<const T*>(next);
        next += a.src_pitch;
        if (static_cast<unsigned>(y) >= static_cast<unsigned>(a.height))
            row = reinterpret_cast<const T*>(plane + border_index(y, a.height, a.border) * a.src_pitch);
        r.c = Piece<T>::load(row + x);
#pragma unroll
        for (int k = 0; k < R; ++k) r.halo[k] = __ldg(row + halo[k]);
    }

    // w[k] = in(x - R + k), k < 4 + 2R.
    __device__ __forceinline__ void window(const Raw& r, float (&w)[4 + 2 * R]) const {
        const int lane = threadIdx.x;
        float c[4];
        Piece<T>::to_floats(r.c, c);
#pragma unroll
        for (int k = 0; k < R; ++k) {
            const float from_left = __shfl_up_sync(kFullWarp, c[4 - R + k], 1);
            const float from_right = __shfl_down_sync(kFullWarp, c[k], 1);
            const float h = to_float(r.halo[k]);
            w[k] = lane == 0 ? h : from_left;
            w[4 + R + k] = lane == 31 ? h : from_right;
        }
#pragma unroll
        for (int p = 0; p < 4; ++p) w[R + p] = c[p];
    }
};

// Rows read pixel by pixel through the border mode: columns[k] is where x - R + k reads from.
template <class T, int R>
struct PixelRows {
    static constexpr int kAhead = 1;
    struct Raw {
        float v[4 + 2 * R];
    };
    const char* plane;
    int y_first;
    int columns[4 + 2 * R];

    __device__ __forceinline__ void load(const ConvolveArgs& a, int i, Raw& r) const {
        const long long ro = convolve_row_offset(a, y_first + i);
#pragma unroll
        for (int k = 0; k < 4 + 2 * R; ++k) r.v[k] = convolve_read<T>(a, plane, ro, columns[k]);
    }

    __device__ __forceinline__ void window(const Raw& r, float (&w)[4 + 2 * R]) const {
#pragma unroll
        for (int k = 0; k < 4 + 2 * R; ++k) w[k] = r.v[k];
    }
};

enum Part { kHead, kMiddle, kTail };

// Strip rows g .. g + K - 1 (the tail: the last 2R rows, g .. g + K - 2), g a multiple of K.
// Row i adds mask row m to output row i - m, kept in ring slot (i - m) mod K; output row
// i - 2R then has all its rows: it is written and its slot cleared for output row i + 1. The
// head skips outputs above the strip, the tail those below it.
template <int kPart, class T, int K, class Rows>
__device__ __forceinline__ void ring_rows(const ConvolveArgs& a, const SquareMask<K>& mask, Rows& rows,
                                          typename Rows::Raw (&ahead)[Rows::kAhead], float (&acc)[K][4],
                                          int g, int n, char*& out, int x, int y0) {
    constexpr int R = K / 2, D = Rows::kAhead;
#pragma unroll
    for (int j = 0; j < (kPart == kTail ? K - 1 : K); ++j) {
        const int i = g + j;
        float w[4 + 2 * R];
        rows.window(ahead[j % D], w);
        const bool next = kPart == kTail ? j + D < 2 * R : (D == 1 || i + D < n);
        if (next) rows.load(a, i + D, ahead[j % D]);
#pragma unroll
        for (int m = 0; m < K; ++m) {
            if (kPart == kHead && m > j) continue;
            if (kPart == kTail && m <= j) continue;
            float (&o)[4] = acc[(j - m + K) % K];
#pragma unroll
            for (int t = 0; t < K; ++t)
#pragma unroll
                for (int p = 0; p < 4; ++p) o[p] = fmaf(mask.w[m * K + t], w[p + t], o[p]);
        }
        if (kPart != kHead || j == K - 1) {
            float (&o)[4] = acc[(j + 1) % K];
            if (y0 + i - 2 * R < a.height) {
                if (a.float_out) store4_as<float>(out, x, a.width, o);
                else store4_as<T>(out, x, a.width, o);
            }
            out += a.dst_pitch;
#pragma unroll
            for (int p = 0; p < 4; ++p) o[p] = 0.0f;
        }
    }
}

// Output rows y0 .. y0 + s - 1 of this lane's columns x .. x + 3: strip rows 0 .. s + 2R - 1
// (image rows from y0 - R). Row addresses advance by the pitch (no multiplications per row).
template <class T, int K, class Rows>
__device__ __forceinline__ void strip(const ConvolveArgs& a, const SquareMask<K>& mask, Rows& rows,
                                      int s, long long z, int x, int y0) {
    constexpr int R = K / 2, D = Rows::kAhead;
    const int n = s + 2 * R;
    char* out = static_cast<char*>(a.dst) + z * a.dst_plane_stride + static_cast<long long>(y0) * a.dst_pitch;
    typename Rows::Raw ahead[D];
#pragma unroll
    for (int d = 0; d < D; ++d) rows.load(a, d, ahead[d]);
    float acc[K][4];
#pragma unroll
    for (int q = 0; q < K; ++q)
#pragma unroll
        for (int p = 0; p < 4; ++p) acc[q][p] = 0.0f;
    ring_rows<kHead, T>(a, mask, rows, ahead, acc, 0, n, out, x, y0);
#pragma unroll 1
    for (int g = K; g < s; g += K) ring_rows<kMiddle, T>(a, mask, rows, ahead, acc, g, n, out, x, y0);
    ring_rows<kTail, T>(a, mask, rows, ahead, acc, s, n, out, x, y0);
}

// Whether a strip takes the vector loads: rows aligned to 4 pixels, the strip's columns inside
// the image, and no constant border value to read (halo columns and rows outside the image
// map to pixels of it). The same answer in both kernels; halo[k] is this lane's k-th halo
// column (lane 0: left of the strip; the others: right of it).
template <int R>
__device__ __forceinline__ bool vector_strip(const ConvolveArgs& a, int aligned, int x0, int y0, int s,
                                             int (&halo)[R]) {
    bool fast = aligned && x0 + kStripWidth <= a.width &&
                (a.border != kConstant || (y0 >= R && y0 + s + R <= a.height));
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const int c = threadIdx.x == 0 ? x0 - R + k : x0 + kStripWidth + k;
        halo[k] = static_cast<int>(border_index(c, a.width, a.border));
        fast = fast && halo[k] >= 0;
    }
    return __all_sync(kFullWarp, fast);
}

// Blocks of 32 x 8 threads, as many as stay resident; warp u of the grid takes strips u,
// u + (all warps), ... (strips along x first, so a block's warps share their halo in L1).
// Strips are rows_per_strip tall, the last one of a column cut to a multiple of K. kVector:
// the kernel of the strips with vector loads, else of the others (pixel by pixel); two
// kernels, so that the rare one's registers do not limit the common one's occupancy. The
// vector kernel's bounds are the fewest registers without spills: 4 blocks per SM for 8-bit
// 3 x 3 and 5 x 5, 3 for the other types', 2 for 7 x 7 and 9 x 9.
template <class T, int K, bool kVector>
__global__ void __launch_bounds__(kConvolveThreads, kVector ? (K <= 5 ? (sizeof(T) == 1 ? 4 : 3) : 2) : 1)
    convolve_small(const __grid_constant__ ConvolveArgs a, const __grid_constant__ SquareMask<K> mask,
                   int strips_x, int strips_y, int rows_per_strip, int aligned) {
    constexpr int R = K / 2;
    const long long strips = static_cast<long long>(strips_x) * strips_y * a.planes;
    for (long long u = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.y; u < strips;
         u += static_cast<long long>(gridDim.x) * kWarps) {
        const ConvolveTile t(u, strips_x, strips_y);
        const int x0 = t.tx * kStripWidth, y0 = t.ty * rows_per_strip, x = x0 + 4 * threadIdx.x;
        const int s = min(rows_per_strip, (a.height - y0 + K - 1) / K * K);
        const char* plane = static_cast<const char*>(a.src) + t.z * a.src_plane_stride;
        VectorRows<T, R> vector_rows{plane, y0 - R, x, {}, plane + static_cast<long long>(y0 - R) * a.src_pitch};
        if (vector_strip<R>(a, aligned, x0, y0, s, vector_rows.halo) != kVector) continue;
        if constexpr (kVector) {
            strip<T, K>(a, mask, vector_rows, s, t.z, x, y0);
        } else {
            PixelRows<T, R> pixel_rows{plane, y0 - R, {}};
#pragma unroll
            for (int k = 0; k < 4 + 2 * R; ++k) pixel_rows.columns[k] = convolve_column(a, x - R + k);
            strip<T, K>(a, mask, pixel_rows, s, t.z, x, y0);
        }
    }
}

// Resident blocks of one kernel on the current device, asked once per device: the query
// costs host time comparable to a small image's whole kernel.
template <class T, int K, bool kVector>
int resident_blocks() {
    constexpr int kDevices = 64;
    static std::atomic<int> known[kDevices];  // zero: not asked yet
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return 0;  // the launch reports the error
    if (device < kDevices && known[device].load(std::memory_order_relaxed) > 0)
        return known[device].load(std::memory_order_relaxed);
    const int n = convolve_resident_blocks(convolve_small<T, K, kVector>, kConvolveThreads, 0);
    if (device < kDevices && n > 0) known[device].store(n, std::memory_order_relaxed);
    return n;
}

template <class T, int K, bool kVector>
cudaError_t launch_strips(const ConvolveArgs& a, const SquareMask<K>& mask, int strips_x, int strips_y,
                          int rows, int aligned, cudaStream_t stream) {
    const int resident = resident_blocks<T, K, kVector>();
    const long long blocks = (static_cast<long long>(strips_x) * strips_y * a.planes + kWarps - 1) / kWarps;
    const long long grid = std::min<long long>(blocks, resident > 0 ? resident : 1 << 30);
    convolve_small<T, K, kVector><<<static_cast<unsigned>(grid), dim3(32, kWarps), 0, stream>>>(
        a, mask, strips_x, strips_y, rows, aligned);
    return cudaGetLastError();
}

template <class T, int K>
cudaError_t launch(const ConvolveArgs& a, const float* weights, cudaStream_t stream) {
    SquareMask<K> mask;
    std::memcpy(mask.w, weights, sizeof mask.w);
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(a.src);
    const std::int64_t piece = 4 * static_cast<std::int64_t>(sizeof(T));
    const int aligned = base % piece == 0 && a.src_pitch % piece == 0 &&
                        (a.planes == 1 || a.src_plane_stride % piece == 0);
    // Strips tall enough for one each per resident warp of the vector kernel (one wave: no
    // partly idle last one), at least 3K rows so that loads ahead cross groups of K rows.
    const int resident = resident_blocks<T, K, true>();
    const int strips_x = (a.width + kStripWidth - 1) / kStripWidth;
    const long long columns = static_cast<long long>(strips_x) * a.planes;
    const long long per_column = std::max<long long>(1, static_cast<long long>(std::max(resident, 1)) * kWarps / columns);
    int rows = static_cast<int>(std::max<long long>(3 * K, (a.height + per_column - 1) / per_column));
    rows = (rows + K - 1) / K * K;
    const int strips_y = (a.height + rows - 1) / rows;
    cudaError_t e = cudaSuccess;
    if (aligned) e = launch_strips<T, K, true>(a, mask, strips_x, strips_y, rows, aligned, stream);
    // Strips that vector loads cannot serve exist only in these cases.
    if (e == cudaSuccess && (!aligned || a.width % kStripWidth != 0 || a.border == kConstant))
        e = launch_strips<T, K, false>(a, mask, strips_x, strips_y, rows, aligned, stream);
    return e;
}

template <class T>
cudaError_t launch_type(const ConvolveArgs& a, const float* w, int k, cudaStream_t s) {
    switch (k) {
        case 3: return launch<T, 3>(a, w, s);
        case 5: return launch<T, 5>(a, w, s);
        case 7: return launch<T, 7>(a, w, s);
        default: return launch<T, 9>(a, w, s);
    }
}

}  // namespace

cudaError_t launch_convolve_small(const ConvolveArgs& args, const float* weights, int k,
                                  int pixel_type, cudaStream_t stream) {
    if (k != 3 && k != 5 && k != 7 && k != 9) return cudaErrorInvalidValue;
    if (args.width < 1 || args.height < 1 || args.planes < 1) return cudaSuccess;
    switch (pixel_type) {
        case 0: return launch_type<std::uint8_t>(args, weights, k, stream);
        case 1: return launch_type<std::uint16_t>(args, weights, k, stream);
        default: return launch_type<float>(args, weights, k, stream);
    }
}

}  // namespace fastmedian::kernels
