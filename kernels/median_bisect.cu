#include "median_bisect.cuh"

#include "border_index.cuh"
#include "median_histogram.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

template <class T>
__device__ std::uint32_t window_key(const PlanesArgs& a, const char* plane, int x, int y) {
    const std::int64_t sx = border_index(x, a.width, a.border);
    const std::int64_t sy = border_index(y, a.height, a.border);
    if (sx < 0 || sy < 0) return a.outside_key;
    return OrderKey<T>::to_key(reinterpret_cast<const T*>(plane + sy * a.src_pitch)[sx]);
}

// Number of window keys <= bound.
template <class T>
__device__ int count_at_most(const PlanesArgs& a, const RunsWindow& w, const char* plane, int x,
                             int y, std::uint32_t bound) {
    int count = 0;
    for (int dy = -w.radius_y; dy <= w.radius_y; ++dy) {
        const int hw = w.half_width[dy + w.radius_y];
        for (int dx = -hw; dx <= hw; ++dx)
            count += window_key<T>(a, plane, x + dx, y + dy) <= bound;
    }
    return count;
}

template <class T>
__global__ void median_bisect(const __grid_constant__ PlanesArgs a,
                              const __grid_constant__ RunsWindow w, const std::uint32_t* ranked) {
    if (ranked != nullptr && ranked[0] <= kMaxRanks) return;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    // Rows stride by the grid's height: grid.y is capped at 65535 blocks.
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        // Smallest key k with more than `rank` window keys <= k: the median's key.
        std::uint32_t lo = 0, hi = OrderKey<T>::kMaxKey;
        while (lo < hi) {
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (count_at_most<T>(a, w, plane, x, y, mid) > w.rank) hi = mid;
            else lo = mid + 1;
        }
        reinterpret_cast<T*>(out_plane + y * a.dst_pitch)[x] = OrderKey<T>::from_key(lo);
    }
}

template <class T>
cudaError_t launch(const PlanesArgs& a, const RunsWindow& w, cudaStream_t stream,
                   const std::uint32_t* ranked = nullptr) {
    const dim3 block(32, 8);
    const unsigned rows = (a.height + block.y - 1) / block.y;
    const dim3 grid((a.width + block.x - 1) / block.x, rows < 65535u ? rows : 65535u, a.planes);
    median_bisect<T><<<grid, block, 0, stream>>>(a, w, ranked);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_bisect_u8(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint8_t>(a, w, s);
}
cudaError_t launch_median_bisect_u16(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint16_t>(a, w, s);
}
cudaError_t launch_median_bisect_f32(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s,
                                     const std::uint32_t* ranked) {
    return launch<float>(a, w, s, ranked);
}

}  // namespace fastmedian::kernels
