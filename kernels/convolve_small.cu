// Square masks of 3, 5, 7 and 9: no shared memory. A warp covers 128 columns (4 per lane) and 8
// output rows; it reads each input row once, 4 pixels per lane in one 4-, 8- or 16-byte load,
// and takes the row's left and right halo from the neighbouring lanes by shuffles (the lanes
// at the warp's ends take one more 4-pixel piece). All loops are unrolled and the weights are
// instruction operands (the mask travels as a kernel parameter). Warps whose reads would leave
// the image, or rows that are not aligned to 4 pixels, read pixel by pixel through the border
// mode instead. The grid holds as many blocks as stay resident, each looping over tiles.
#include <algorithm>
#include <cstring>

#include "convolve_args.cuh"
#include "convolve_tile.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kRows = 8;          // output rows per warp
constexpr int kWarps = 8;         // warps per block, stacked vertically
constexpr int kBlockWidth = 128;  // 32 lanes x 4 columns
constexpr int kBlockHeight = kRows * kWarps;
constexpr unsigned kFullWarp = 0xffffffffu;

template <int K>
struct SquareMask {
    float w[K * K];
};

// Four pixels from an aligned address, as floats.
template <class T> struct Load4;
template <> struct Load4<float> {
    __device__ static void load(const float* p, float (&v)[4]) {
        const float4 q = __ldg(reinterpret_cast<const float4*>(p));
        v[0] = q.x;
        v[1] = q.y;
        v[2] = q.z;
        v[3] = q.w;
    }
};
template <> struct Load4<std::uint16_t> {
    __device__ static void load(const std::uint16_t* p, float (&v)[4]) {
        const uint2 q = __ldg(reinterpret_cast<const uint2*>(p));
        v[0] = small_to_float(q.x & 0xffffu);
        v[1] = small_to_float(q.x >> 16);
        v[2] = small_to_float(q.y & 0xffffu);
        v[3] = small_to_float(q.y >> 16);
    }
};
template <> struct Load4<std::uint8_t> {
    __device__ static void load(const std::uint8_t* p, float (&v)[4]) {
        const unsigned q = __ldg(reinterpret_cast<const unsigned*>(p));
#pragma unroll
        for (int i = 0; i < 4; ++i) v[i] = small_to_float((q >> (8 * i)) & 0xffu);
    }
};

// Input row y for this lane's outputs x .. x + 3: w[k] = in(x - R + k), k < 4 + 2R. Every
// lane also reads the 4 pixels left of the warp's columns and the 4 right of them (the same
// addresses for all lanes: one sector each), which lanes 0 and 31 take as their halo; no
// branch, so the loads of all rows can be in flight at once.
template <class T, int R>
__device__ __forceinline__ void row_inside(const ConvolveArgs& a, const char* plane, int y, int x0,
                                           int lane, float (&w)[4 + 2 * R]) {
    const T* row = reinterpret_cast<const T*>(plane + static_cast<long long>(y) * a.src_pitch);
    float c[4], left[4], right[4];
    Load4<T>::load(row + x0 + 4 * lane, c);
    Load4<T>::load(row + x0 - 4, left);
    Load4<T>::load(row + x0 + kBlockWidth, right);
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const float from_left = __shfl_up_sync(kFullWarp, c[4 - R + j], 1);
        const float from_right = __shfl_down_sync(kFullWarp, c[j], 1);
        w[j] = lane == 0 ? left[4 - R + j] : from_left;
        w[4 + R + j] = lane == 31 ? right[j] : from_right;
    }
#pragma unroll
    for (int p = 0; p < 4; ++p) w[R + p] = c[p];
}

// The same row read pixel by pixel through the border mode: columns[k] is where x - R + k
// reads from.
template <class T, int R>
__device__ __forceinline__ void row_mapped(const ConvolveArgs& a, const char* plane, int y,
                                           const int (&columns)[4 + 2 * R], float (&w)[4 + 2 * R]) {
    const long long ro = convolve_row_offset(a, y);
#pragma unroll
    for (int k = 0; k < 4 + 2 * R; ++k) w[k] = convolve_read<T>(a, plane, ro, columns[k]);
}

// This warp's 4 x 8 outputs per lane: output rows y0 .. y0 + 7, columns x0 + 4 lane + 0..3.
// Input row i serves output rows q = i - m for mask rows m: each output takes its mask rows
// top to bottom, and each row's taps left to right. kInside: the fast reads (one unrolled
// copy without branches); otherwise the border mode's.
template <class T, int K, bool kInside>
__device__ __forceinline__ void warp_tile(const ConvolveArgs& a, const SquareMask<K>& mask,
                                          const char* plane, long long z, int x0, int y0) {
    constexpr int R = K / 2;
    const int lane = threadIdx.x;
    const int x = x0 + 4 * lane;
    int columns[4 + 2 * R];
    if constexpr (!kInside) {
#pragma unroll
        for (int k = 0; k < 4 + 2 * R; ++k) columns[k] = convolve_column(a, x - R + k);
    }
    float acc[kRows][4];
#pragma unroll
    for (int q = 0; q < kRows; ++q)
#pragma unroll
        for (int p = 0; p < 4; ++p) acc[q][p] = 0.0f;
#pragma unroll
    for (int i = 0; i < kRows + K - 1; ++i) {
        float w[4 + 2 * R];
        if constexpr (kInside) row_inside<T, R>(a, plane, y0 - R + i, x0, lane, w);
        else row_mapped<T, R>(a, plane, y0 - R + i, columns, w);
#pragma unroll
        for (int q = 0; q < kRows; ++q) {
            const int m = i - q;
            if (m >= 0 && m < K) {
#pragma unroll
                for (int n = 0; n < K; ++n)
#pragma unroll
                    for (int p = 0; p < 4; ++p) acc[q][p] = fmaf(mask.w[m * K + n], w[p + n], acc[q][p]);
            }
        }
    }
#pragma unroll
    for (int q = 0; q < kRows; ++q) convolve_store4<T>(a, z, y0 + q, x, acc[q]);
}

// Blocks of 32 x 8 threads, as many as stay resident, each looping over tiles of 128 x 64
// outputs (a warp per 8 rows). The loads of all input rows are in flight at once, which takes
// registers: up to 128 for 3 x 3 and 5 x 5 (two blocks per SM), more for 7 x 7 and 9 x 9 (one
// block, still enough for their multiply-adds).
template <class T, int K>
__global__ void __launch_bounds__(kConvolveThreads, K <= 5 ? 2 : 1) convolve_small(const __grid_constant__ ConvolveArgs a,
                               const __grid_constant__ SquareMask<K> mask, int tiles_x,
                               int tiles_y, int aligned) {
    constexpr int R = K / 2;
    const long long tiles = static_cast<long long>(tiles_x) * tiles_y * a.planes;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const ConvolveTile tile(t, tiles_x, tiles_y);
        const int x0 = tile.tx * kBlockWidth, yb = tile.ty * kBlockHeight;
        const int y0 = yb + threadIdx.y * kRows;
        const char* plane = static_cast<const char*>(a.src) + tile.z * a.src_plane_stride;
        // The same for the whole block (uniform control flow, where the weights stay
        // instruction operands): every read of the fast path lies inside the image.
        const bool inside = aligned && x0 >= 4 && x0 + kBlockWidth + 4 <= a.width && yb >= R &&
                            yb + kBlockHeight + R <= a.height;
        if (inside) warp_tile<T, K, true>(a, mask, plane, tile.z, x0, y0);
        else warp_tile<T, K, false>(a, mask, plane, tile.z, x0, y0);
    }
}

template <class T, int K>
cudaError_t launch(const ConvolveArgs& a, const float* weights, cudaStream_t stream) {
    SquareMask<K> mask;
    std::memcpy(mask.w, weights, sizeof mask.w);
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(a.src);
    const std::int64_t piece = 4 * static_cast<std::int64_t>(sizeof(T));
    const int aligned = base % piece == 0 && a.src_pitch % piece == 0 &&
                        (a.planes == 1 || a.src_plane_stride % piece == 0);
    const int tiles_x = (a.width + kBlockWidth - 1) / kBlockWidth;
    const int tiles_y = (a.height + kBlockHeight - 1) / kBlockHeight;
    const long long tiles = static_cast<long long>(tiles_x) * tiles_y * a.planes;
    auto kernel = convolve_small<T, K>;
    const int resident = convolve_resident_blocks(kernel, 32 * kWarps, 0);
    const long long blocks = std::min<long long>(tiles, resident > 0 ? resident : tiles);
    kernel<<<static_cast<unsigned>(blocks), dim3(32, kWarps), 0, stream>>>(a, mask, tiles_x, tiles_y,
                                                                           aligned);
    return cudaGetLastError();
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
