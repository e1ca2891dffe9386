#include "median_column_network.cuh"

#include "median_lanes.cuh"
#include "networks/generated/median_column_networks.hpp"
#include "semantics/order_key.hpp"
#include "staged_tile.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kThreadsX = 32, kThreadsY = 8;

// A key (or a packed pair of keys) with the min/max the generated networks call.
template <class L>
struct Lane {
    std::uint32_t v;
    __device__ static Lane min(Lane a, Lane b) { return {L::lo(a.v, b.v)}; }
    __device__ static Lane max(Lane a, Lane b) { return {L::hi(a.v, b.v)}; }
};

// Sorted columns of height h take rows [base(h), base(h) + h) of the sorted store: heights
// 1, 3, 5, 7 at rows 0, 1..3, 4..8, 9..15.
__host__ __device__ constexpr int column_base(int h) { return ((h - 1) / 2) * ((h - 1) / 2); }
constexpr int kSortedRows = 16;

template <class Net, class T, class L>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
median_column_network(const __grid_constant__ PlanesArgs a) {
    using Key = typename StagedKey<T>::type;
    constexpr int RX = Net::kRadiusX, RY = Net::kRadiusY;
    constexpr int kTileW = kThreadsX * L::kCols, kTileH = kThreadsY;
    constexpr int kCols = kTileW + 2 * RX;          // window columns a block's outputs use
    constexpr int kInW = kCols + 1, kInH = kTileH + 2 * RY;  // +1: the last packed pair's mate
    __shared__ Key tile[kInH][kInW];
    __shared__ std::uint32_t sorted[kSortedRows][kTileH][kCols];
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    stage_tile<T>(tile, a, x0 - RX, y0 - RY);
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    constexpr int kThreads = kThreadsX * kThreadsY;

    // Sort every column of every height the window uses, once per output row; packed lanes
    // sort the pair of columns (cx, cx + 1) together.
    auto sort_height = [&](auto height) {
        constexpr int H = decltype(height)::value;
        bool used = false;
#pragma unroll
        for (int c = 0; c <= 2 * RX; ++c) used |= Net::column_height(c) == H;
        if (!used) return;
        for (int i = tid; i < kTileH * kCols; i += kThreads) {
            const int y = i / kCols, cx = i - y * kCols;
            Lane<L> v[H];
#pragma unroll
            for (int r = 0; r < H; ++r) v[r].v = pack_keys<L>(tile[y + RY - H / 2 + r], cx);
            networks::SortColumn<H>::apply(v);
#pragma unroll
            for (int r = 0; r < H; ++r) sorted[column_base(H) + r][y][cx] = v[r].v;
        }
    };
    sort_height(std::integral_constant<int, 1>{});
    sort_height(std::integral_constant<int, 3>{});
    sort_height(std::integral_constant<int, 5>{});
    sort_height(std::integral_constant<int, 7>{});
    __syncthreads();

    const int lx = threadIdx.x * L::kCols, ly = threadIdx.y;
    const int x = x0 + lx, y = y0 + ly;
    if (x >= a.width || y >= a.height) return;
    auto in = [&](int c, int i) {
        return Lane<L>{sorted[column_base(Net::column_height(c)) + i][ly][lx + c]};
    };
    const std::uint32_t m = Net::template median<Lane<L>>(in).v;
    store_lanes<T, L>(a, x, y, m);
}

bool fits(int height) { return (height + kThreadsY - 1) / kThreadsY <= 65535; }

template <class T>
cudaError_t launch(const int* half_width, int rows, const PlanesArgs& a, cudaStream_t stream) {
    if (!fits(a.height)) return cudaErrorInvalidValue;
    using L = typename LanesFor<T>::type;
    constexpr int kTileW = kThreadsX * L::kCols;
    const dim3 grid((a.width + kTileW - 1) / kTileW, (a.height + kThreadsY - 1) / kThreadsY,
                    a.planes);
    const bool served = networks::with_network(half_width, rows, [&](auto net) {
        median_column_network<decltype(net), T, L>
            <<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(a);
    });
    return served ? cudaGetLastError() : cudaErrorInvalidValue;
}

}  // namespace

bool median_column_network_serves(const int* half_width, int rows, int height) {
    return fits(height) && networks::with_network(half_width, rows, [](auto) {});
}

cudaError_t launch_median_column_network_u8(const int* hw, int rows, const PlanesArgs& a,
                                            cudaStream_t s) {
    return launch<std::uint8_t>(hw, rows, a, s);
}
cudaError_t launch_median_column_network_u16(const int* hw, int rows, const PlanesArgs& a,
                                             cudaStream_t s) {
    return launch<std::uint16_t>(hw, rows, a, s);
}
cudaError_t launch_median_column_network_f32(const int* hw, int rows, const PlanesArgs& a,
                                             cudaStream_t s) {
    return launch<float>(hw, rows, a, s);
}

}  // namespace fastmedian::kernels
