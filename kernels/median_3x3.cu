#include "median_3x3.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kOutW = 8;                        // outputs per thread, x
constexpr int kOutH = 4;                        // outputs per thread, y (two pairs of rows)
constexpr int kThreadsX = 32, kThreadsY = 4;
constexpr int kTileW = kThreadsX * kOutW;       // 256 outputs per block, x
constexpr int kTileH = kThreadsY * kOutH;       // 16 outputs per block, y
constexpr int kInW = kTileW + 2, kInH = kTileH + 2;

__device__ __forceinline__ std::uint32_t min3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return min(min(a, b), c);  // ptxas fuses this into one VIMNMX3
}
__device__ __forceinline__ std::uint32_t max3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return max(max(a, b), c);
}
__device__ __forceinline__ std::uint32_t med3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return max(min(a, b), min(max(a, b), c));
}

template <class T>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
median_3x3(const __grid_constant__ PlanesArgs a) {
    __shared__ T tile[kInH][kInW];
    __shared__ int row_of[kInH], col_of[kInW];  // source row/column, -1 for the constant
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    constexpr int kThreads = kThreadsX * kThreadsY;
    for (int i = tid; i < kInW; i += kThreads)
        col_of[i] = static_cast<int>(border_index(x0 + i - 1, a.width, a.border));
    for (int i = tid; i < kInH; i += kThreads)
        row_of[i] = static_cast<int>(border_index(y0 + i - 1, a.height, a.border));
    __syncthreads();

    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    const T outside = OrderKey<T>::from_key(a.outside_key);
    for (int i = tid; i < kInW * kInH; i += kThreads) {
        const int ty = i / kInW, tx = i - ty * kInW;
        const int sy = row_of[ty], sx = col_of[tx];
        tile[ty][tx] = (sy < 0 || sx < 0)
            ? outside
            : reinterpret_cast<const T*>(plane + static_cast<std::int64_t>(sy) * a.src_pitch)[sx];
    }
    __syncthreads();

    const int lx = threadIdx.x * kOutW, x = x0 + lx;
    if (x >= a.width) return;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
#pragma unroll
    for (int pair = 0; pair < kOutH / 2; ++pair) {
        const int ly = threadIdx.y * kOutH + 2 * pair;  // tile rows ly .. ly + 3 feed 2 outputs
        // Sorted triples per column for output rows ly and ly + 1 (rows 1, 2 shared).
        std::uint32_t lo0[kOutW + 2], mid0[kOutW + 2], hi0[kOutW + 2];
        std::uint32_t lo1[kOutW + 2], mid1[kOutW + 2], hi1[kOutW + 2];
#pragma unroll
        for (int c = 0; c < kOutW + 2; ++c) {
            const std::uint32_t r0 = OrderKey<T>::to_key(tile[ly][lx + c]);
            const std::uint32_t r1 = OrderKey<T>::to_key(tile[ly + 1][lx + c]);
            const std::uint32_t r2 = OrderKey<T>::to_key(tile[ly + 2][lx + c]);
            const std::uint32_t r3 = OrderKey<T>::to_key(tile[ly + 3][lx + c]);
            const std::uint32_t s = min(r1, r2), l = max(r1, r2);
            lo0[c] = min(r0, s);
            hi0[c] = max(r0, l);
            mid0[c] = max(s, min(r0, l));
            lo1[c] = min(r3, s);
            hi1[c] = max(r3, l);
            mid1[c] = max(s, min(r3, l));
        }
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            const int y = y0 + ly + j;
            if (y >= a.height) break;
            const std::uint32_t* lo = j == 0 ? lo0 : lo1;
            const std::uint32_t* mid = j == 0 ? mid0 : mid1;
            const std::uint32_t* hi = j == 0 ? hi0 : hi1;
            alignas(16) T out[kOutW];
#pragma unroll
            for (int i = 0; i < kOutW; ++i)
                out[i] = OrderKey<T>::from_key(med3(max3(lo[i], lo[i + 1], lo[i + 2]),
                                                    med3(mid[i], mid[i + 1], mid[i + 2]),
                                                    min3(hi[i], hi[i + 1], hi[i + 2])));
            T* row = reinterpret_cast<T*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch) + x;
            constexpr int kBytes = kOutW * sizeof(T);
            if (x + kOutW <= a.width && reinterpret_cast<std::uintptr_t>(row) % kBytes == 0) {
                // One or two 8/16-byte stores for the thread's whole run of outputs.
                if constexpr (kBytes == 8) {
                    *reinterpret_cast<uint2*>(row) = *reinterpret_cast<const uint2*>(out);
                } else {
#pragma unroll
                    for (int v = 0; v < kBytes / 16; ++v)
                        reinterpret_cast<uint4*>(row)[v] = reinterpret_cast<const uint4*>(out)[v];
                }
            } else {
                for (int i = 0; i < kOutW && x + i < a.width; ++i) row[i] = out[i];
            }
        }
    }
}

template <class T>
cudaError_t launch(const PlanesArgs& a, cudaStream_t stream) {
    const dim3 block(kThreadsX, kThreadsY);
    const dim3 grid((a.width + kTileW - 1) / kTileW, (a.height + kTileH - 1) / kTileH, a.planes);
    if (!median_3x3_fits(a.height)) return cudaErrorInvalidConfiguration;
    median_3x3<T><<<grid, block, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

bool median_3x3_fits(int height) { return (height + kTileH - 1) / kTileH <= 65535; }

cudaError_t launch_median_3x3_u8(const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint8_t>(a, s);
}
cudaError_t launch_median_3x3_u16(const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint16_t>(a, s);
}
cudaError_t launch_median_3x3_f32(const PlanesArgs& a, cudaStream_t s) {
    return launch<float>(a, s);
}

}  // namespace fastmedian::kernels
