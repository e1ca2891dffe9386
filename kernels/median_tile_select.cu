#include "median_tile_select.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kTileW = 32;         // outputs per block, x: one per thread column
constexpr int kThreadsY = 8;
constexpr int kRowsPerThread = 4;  // outputs per thread, y
constexpr int kTileH = kThreadsY * kRowsPerThread;
constexpr int kMaxRadius = 24;  // the staged tile then takes at most 80 x 80 keys (25 KB)

template <class T>
__global__ void __launch_bounds__(kTileW * kThreadsY)
median_tile_select(const __grid_constant__ PlanesArgs a, const __grid_constant__ RunsWindow w) {
    extern __shared__ std::uint32_t tile[];
    int rx = 0;
    for (int i = 0; i <= 2 * w.radius_y; ++i) rx = max(rx, w.half_width[i]);
    const int ry = w.radius_y;
    const int tile_w = kTileW + 2 * rx, tile_h = kTileH + 2 * ry;
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;

    // Stage the tile with its halo as keys; the border rule applies here, once per pixel.
    for (int i = threadIdx.y * kTileW + threadIdx.x; i < tile_w * tile_h; i += kTileW * kThreadsY) {
        const int ty = i / tile_w, tx = i - ty * tile_w;
        const std::int64_t sy = border_index(y0 + ty - ry, a.height, a.border);
        const std::int64_t sx = border_index(x0 + tx - rx, a.width, a.border);
        tile[i] = (sx < 0 || sy < 0)
            ? a.outside_key
            : OrderKey<T>::to_key(reinterpret_cast<const T*>(plane + sy * a.src_pitch)[sx]);
    }
    __syncthreads();

    const int x = x0 + threadIdx.x;
    if (x >= a.width) return;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    for (int j = 0; j < kRowsPerThread; ++j) {
        const int ly = threadIdx.y * kRowsPerThread + j;
        const int y = y0 + ly;
        if (y >= a.height) break;
        // Invariant: the median's key lies in [lo, lo + span); each pass splits it in 4. The key
        // ranges (2^8, 2^16, 2^32) are powers of 4, so thresholds never pass lo + span.
        std::uint32_t lo = 0;
        std::uint64_t span = std::uint64_t{OrderKey<T>::kMaxKey} + 1;
        const std::uint32_t* centre = tile + (ly + ry) * tile_w + threadIdx.x + rx;
        while (span > 1) {
            const std::uint64_t q = span / 4;
            const std::uint32_t t1 = lo + static_cast<std::uint32_t>(q);
            const std::uint32_t t2 = lo + static_cast<std::uint32_t>(2 * q);
            const std::uint32_t t3 = lo + static_cast<std::uint32_t>(3 * q);
            int below1 = 0, below2 = 0, below3 = 0;  // keys < t1, < t2, < t3
            for (int dy = -ry; dy <= ry; ++dy) {
                const int hw = w.half_width[dy + ry];
                const std::uint32_t* row = centre + dy * tile_w;
                for (int dx = -hw; dx <= hw; ++dx) {
                    const std::uint32_t k = row[dx];
                    below1 += k < t1;
                    below2 += k < t2;
                    below3 += k < t3;
                }
            }
            lo = w.rank < below1 ? lo : w.rank < below2 ? t1 : w.rank < below3 ? t2 : t3;
            span = q;
        }
        reinterpret_cast<T*>(out_plane + y * a.dst_pitch)[x] = OrderKey<T>::from_key(lo);
    }
}

template <class T>
cudaError_t launch(const PlanesArgs& a, const RunsWindow& w, cudaStream_t stream) {
    int rx = 0;
    for (int i = 0; i <= 2 * w.radius_y; ++i) rx = rx > w.half_width[i] ? rx : w.half_width[i];
    if (!tile_select_fits(rx, w.radius_y, a.height)) return cudaErrorInvalidValue;
    const std::size_t shared = sizeof(std::uint32_t) * (kTileW + 2 * rx) * (kTileH + 2 * w.radius_y);
    const dim3 block(kTileW, kThreadsY);
    const dim3 grid((a.width + kTileW - 1) / kTileW, (a.height + kTileH - 1) / kTileH, a.planes);
    cudaError_t e = cudaFuncSetAttribute(median_tile_select<T>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared));
    if (e != cudaSuccess) return e;
    median_tile_select<T><<<grid, block, shared, stream>>>(a, w);
    return cudaGetLastError();
}

}  // namespace

bool tile_select_fits(int radius_x, int radius_y, int height) {
    return radius_x <= kMaxRadius && radius_y <= kMaxRadius &&
           (height + kTileH - 1) / kTileH <= 65535;  // grid.y
}

cudaError_t launch_median_tile_select_u8(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint8_t>(a, w, s);
}
cudaError_t launch_median_tile_select_u16(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint16_t>(a, w, s);
}
cudaError_t launch_median_tile_select_f32(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<float>(a, w, s);
}

}  // namespace fastmedian::kernels
