#include "median_network.cuh"

#include "generated/median_networks.cuh"
#include "median_lanes.cuh"
#include "semantics/order_key.hpp"
#include "staged_tile.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kThreadsX = 32, kThreadsY = 8;

template <class Mask, class T, class L>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
median_network(const __grid_constant__ PlanesArgs a) {
    using Key = typename StagedKey<T>::type;
    constexpr int R = Mask::kRadius;
    constexpr int kTileW = kThreadsX * L::kCols, kTileH = kThreadsY;
    constexpr int kInW = kTileW + 2 * R, kInH = kTileH + 2 * R;
    __shared__ Key tile[kInH][kInW];
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    stage_tile<T>(tile, a, x0 - R, y0 - R);

    const int lx = threadIdx.x * L::kCols, ly = threadIdx.y;
    const int x = x0 + lx, y = y0 + ly;
    if (x >= a.width || y >= a.height) return;
    std::uint32_t v[Mask::kCount];
    int n = 0;
#pragma unroll
    for (int r = 0; r <= 2 * R; ++r)
#pragma unroll
        for (int c = R - Mask::half_width(r); c <= R + Mask::half_width(r); ++c)
            v[n++] = pack_keys<L>(tile[ly + r], lx + c);
    const std::uint32_t m = median_of<Mask::kCount, L>(v);
    store_lanes<T, L>(a, x, y, m);
}

template <class T>
cudaError_t launch(int mask, const PlanesArgs& a, cudaStream_t stream) {
    if (mask < 0 || (a.height + kThreadsY - 1) / kThreadsY > 65535) return cudaErrorInvalidValue;
    using L = typename LanesFor<T>::type;
    constexpr int kTileW = kThreadsX * L::kCols;
    const dim3 grid((a.width + kTileW - 1) / kTileW, (a.height + kThreadsY - 1) / kThreadsY,
                    a.planes);
    visit_network_mask(mask, [&](auto m) {
        median_network<decltype(m), T, L><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(a);
    });
    return cudaGetLastError();
}

}  // namespace

int median_network_mask(const int* half_width, int rows, int height) {
    if ((height + kThreadsY - 1) / kThreadsY > 65535) return -1;
    return find_network_mask(half_width, rows);
}

cudaError_t launch_median_network_u8(int mask, const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint8_t>(mask, a, s);
}
cudaError_t launch_median_network_u16(int mask, const PlanesArgs& a, cudaStream_t s) {
    return launch<std::uint16_t>(mask, a, s);
}
cudaError_t launch_median_network_f32(int mask, const PlanesArgs& a, cudaStream_t s) {
    return launch<float>(mask, a, s);
}

}  // namespace fastmedian::kernels
