#include "median_3x3.cuh"

#include "border_index.cuh"
#include "median_lanes.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kRowsPerBlock = 32;  // each lane streams down this many output rows

// Neighbouring columns' keys by warp shuffle: one column to the left and to the right of this
// lane's (for packed lanes, the pair (c, c+1) shifted to (c-1, c) and (c+1, c+2)).
__device__ __forceinline__ void neighbours(ScalarLanes, std::uint32_t v, std::uint32_t& left,
                                           std::uint32_t& right) {
    left = __shfl_up_sync(0xFFFFFFFFu, v, 1);
    right = __shfl_down_sync(0xFFFFFFFFu, v, 1);
}
__device__ __forceinline__ void neighbours(PackedLanes, std::uint32_t v, std::uint32_t& left,
                                           std::uint32_t& right) {
    const std::uint32_t l = __shfl_up_sync(0xFFFFFFFFu, v, 1);
    const std::uint32_t r = __shfl_down_sync(0xFFFFFFFFu, v, 1);
    left = __byte_perm(l, v, 0x5432);   // l's high half, v's low half
    right = __byte_perm(v, r, 0x5432);  // v's high half, r's low half
}

template <class L>
__device__ __forceinline__ std::uint32_t med3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return L::hi(L::lo(a, b), L::lo(L::hi(a, b), c));
}

// The medians of this lane's columns from the sorted column triples of its own and the
// neighbouring columns.
template <class L>
__device__ __forceinline__ std::uint32_t median_of_triples(std::uint32_t lo, std::uint32_t mid,
                                                           std::uint32_t hi) {
    std::uint32_t lo_l, lo_r, mid_l, mid_r, hi_l, hi_r;
    neighbours(L{}, lo, lo_l, lo_r);
    neighbours(L{}, mid, mid_l, mid_r);
    neighbours(L{}, hi, hi_l, hi_r);
    return med3<L>(L::hi3(lo_l, lo, lo_r), med3<L>(mid_l, mid, mid_r), L::lo3(hi_l, hi, hi_r));
}

// Each lane owns L::kCols adjacent columns and streams down kRowsPerBlock output rows two at a
// time: it loads two new rows, sorts their pair once, completes the two column triples that
// share it, and takes each median with its neighbours' triples. Loads are coalesced across the
// warp and go straight from global memory; the border rule costs one lookup per row and per
// column. A warp reads 32 * kCols columns and writes all but the first and the last.
template <class T, class L>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
median_3x3(const __grid_constant__ PlanesArgs a) {
    constexpr int kColsPerWarp = 32 * L::kCols - 2;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int first = (blockIdx.x * kWarpsPerBlock + warp) * kColsPerWarp;  // first output column
    const int x = first - 1 + L::kCols * lane;                              // this lane's first column
    int sx[L::kCols];
    bool writes[L::kCols];
#pragma unroll
    for (int i = 0; i < L::kCols; ++i) {
        sx[i] = static_cast<int>(border_index(x + i, a.width, a.border));
        writes[i] = x + i >= first && x + i < first + kColsPerWarp && x + i < a.width;
    }
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    const int y0 = blockIdx.y * kRowsPerBlock;

    auto key_at = [&](int y) -> std::uint32_t {
        const int sy = static_cast<int>(border_index(y, a.height, a.border));
        const T* row = reinterpret_cast<const T*>(plane + static_cast<std::int64_t>(sy) * a.src_pitch);
        std::uint32_t key = 0;
#pragma unroll
        for (int i = 0; i < L::kCols; ++i)
            key |= (sy < 0 || sx[i] < 0 ? a.outside_key : OrderKey<T>::to_key(row[sx[i]])) << (16 * i);
        return key;
    };
    auto store = [&](int y, std::uint32_t key) {
        if (y >= a.height) return;
        T* row = reinterpret_cast<T*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch);
#pragma unroll
        for (int i = 0; i < L::kCols; ++i)
            if (writes[i])
                row[x + i] = OrderKey<T>::from_key(lane_key<L>(key, i));
    };

    std::uint32_t r0 = key_at(y0 - 1), r1 = key_at(y0);
#pragma unroll 4
    for (int y = y0; y < y0 + kRowsPerBlock; y += 2) {
        const std::uint32_t r2 = key_at(y + 1), r3 = key_at(y + 2);
        const std::uint32_t s = L::lo(r1, r2), l = L::hi(r1, r2);
        // Rows y-1, y, y+1 and rows y, y+1, y+2, each sorted from the shared pair (s, l).
        store(y, median_of_triples<L>(L::lo(r0, s), L::hi(s, L::lo(r0, l)), L::hi(r0, l)));
        store(y + 1, median_of_triples<L>(L::lo(r3, s), L::hi(s, L::lo(r3, l)), L::hi(r3, l)));
        r0 = r2;
        r1 = r3;
    }
}

template <class T, class L>
cudaError_t launch(const PlanesArgs& a, cudaStream_t stream) {
    if (!median_3x3_fits(a.height)) return cudaErrorInvalidConfiguration;
    constexpr int kColsPerBlock = kWarpsPerBlock * (32 * L::kCols - 2);
    const dim3 block(32 * kWarpsPerBlock);
    const dim3 grid((a.width + kColsPerBlock - 1) / kColsPerBlock,
                    (a.height + kRowsPerBlock - 1) / kRowsPerBlock, a.planes);
    median_3x3<T, L><<<grid, block, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

bool median_3x3_fits(int height) { return (height + kRowsPerBlock - 1) / kRowsPerBlock <= 65535; }

cudaError_t launch_median_3x3_u8(const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint8_t, LanesFor<std::uint8_t>::type>(a, s);
}
cudaError_t launch_median_3x3_u16(const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint16_t, LanesFor<std::uint16_t>::type>(a, s);
}
cudaError_t launch_median_3x3_f32(const PlanesArgs& a, cudaStream_t s) {
    return launch<float, LanesFor<float>::type>(a, s);
}

}  // namespace fastmedian::kernels
