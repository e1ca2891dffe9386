#include "median_3x3.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kColsPerWarp = 30;   // 32 lanes read 32 columns; the 2 edge lanes are halo
constexpr int kRowsPerBlock = 32;  // each lane streams down this many output rows
constexpr int kColsPerBlock = kWarpsPerBlock * kColsPerWarp;

__device__ __forceinline__ std::uint32_t min3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return min(min(a, b), c);  // ptxas fuses this into one VIMNMX3
}
__device__ __forceinline__ std::uint32_t max3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return max(max(a, b), c);
}
__device__ __forceinline__ std::uint32_t med3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return max(min(a, b), min(max(a, b), c));
}

// The median from this lane's sorted column triple and its neighbours' (by warp shuffle).
__device__ __forceinline__ std::uint32_t median_of_triples(std::uint32_t lo, std::uint32_t mid,
                                                           std::uint32_t hi) {
    const std::uint32_t lo_l = __shfl_up_sync(0xFFFFFFFFu, lo, 1);
    const std::uint32_t lo_r = __shfl_down_sync(0xFFFFFFFFu, lo, 1);
    const std::uint32_t mid_l = __shfl_up_sync(0xFFFFFFFFu, mid, 1);
    const std::uint32_t mid_r = __shfl_down_sync(0xFFFFFFFFu, mid, 1);
    const std::uint32_t hi_l = __shfl_up_sync(0xFFFFFFFFu, hi, 1);
    const std::uint32_t hi_r = __shfl_down_sync(0xFFFFFFFFu, hi, 1);
    return med3(max3(lo_l, lo, lo_r), med3(mid_l, mid, mid_r), min3(hi_l, hi, hi_r));
}

// Each lane owns one column and streams down kRowsPerBlock output rows two at a time: it
// loads two new rows, sorts their pair once, completes the two column triples that share it,
// and takes each median with its neighbours' triples. Loads are coalesced across the warp and
// go straight from global memory; the border rule costs one lookup per row and per column.
template <class T>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
median_3x3(const __grid_constant__ PlanesArgs a) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x = (blockIdx.x * kWarpsPerBlock + warp) * kColsPerWarp + lane - 1;
    const int sx = static_cast<int>(border_index(x, a.width, a.border));
    const bool writes = lane >= 1 && lane <= kColsPerWarp && x < a.width;
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    const int y0 = blockIdx.y * kRowsPerBlock;

    auto key_at = [&](int y) -> std::uint32_t {
        const int sy = static_cast<int>(border_index(y, a.height, a.border));
        if (sy < 0 || sx < 0) return a.outside_key;
        return OrderKey<T>::to_key(
            reinterpret_cast<const T*>(plane + static_cast<std::int64_t>(sy) * a.src_pitch)[sx]);
    };
    auto store = [&](int y, std::uint32_t key) {
        if (writes && y < a.height)
            reinterpret_cast<T*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch)[x] =
                OrderKey<T>::from_key(key);
    };

    std::uint32_t r0 = key_at(y0 - 1), r1 = key_at(y0);
#pragma unroll 4
    for (int y = y0; y < y0 + kRowsPerBlock; y += 2) {
        const std::uint32_t r2 = key_at(y + 1), r3 = key_at(y + 2);
        const std::uint32_t s = min(r1, r2), l = max(r1, r2);
        // Rows y-1, y, y+1 and rows y, y+1, y+2, each sorted from the shared pair (s, l).
        store(y, median_of_triples(min(r0, s), max(s, min(r0, l)), max(r0, l)));
        store(y + 1, median_of_triples(min(r3, s), max(s, min(r3, l)), max(r3, l)));
        r0 = r2;
        r1 = r3;
    }
}

template <class T>
cudaError_t launch(const PlanesArgs& a, cudaStream_t stream) {
    if (!median_3x3_fits(a.height)) return cudaErrorInvalidConfiguration;
    const dim3 block(32 * kWarpsPerBlock);
    const dim3 grid((a.width + kColsPerBlock - 1) / kColsPerBlock,
                    (a.height + kRowsPerBlock - 1) / kRowsPerBlock, a.planes);
    median_3x3<T><<<grid, block, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

bool median_3x3_fits(int height) { return (height + kRowsPerBlock - 1) / kRowsPerBlock <= 65535; }

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
