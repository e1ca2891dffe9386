#include "median_bisect.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

template <class T>
__device__ std::uint32_t window_key(const MedianBisectArgs& a, int x, int y) {
    const std::int64_t sx = border_index(x, a.width, a.border);
    const std::int64_t sy = border_index(y, a.height, a.border);
    if (sx < 0 || sy < 0) return a.outside_key;
    const T* row = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + sy * a.src_pitch);
    return OrderKey<T>::to_key(row[sx]);
}

// Number of window keys <= bound.
template <class T>
__device__ int count_at_most(const MedianBisectArgs& a, int x, int y, std::uint32_t bound) {
    int count = 0;
    for (int dy = -a.radius_y; dy <= a.radius_y; ++dy) {
        const int hw = a.half_width[dy + a.radius_y];
        for (int dx = -hw; dx <= hw; ++dx)
            count += window_key<T>(a, x + dx, y + dy) <= bound;
    }
    return count;
}

template <class T>
__global__ void median_bisect(MedianBisectArgs a) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    // Rows stride by the grid's height: grid.y is capped at 65535 blocks.
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        // Smallest key k with more than `rank` window keys <= k: the median's key.
        std::uint32_t lo = 0, hi = OrderKey<T>::kMaxKey;
        while (lo < hi) {
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (count_at_most<T>(a, x, y, mid) > a.rank) hi = mid;
            else lo = mid + 1;
        }
        T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + y * a.dst_pitch);
        out[x] = OrderKey<T>::from_key(lo);
    }
}

template <class T>
cudaError_t launch(const MedianBisectArgs& a, cudaStream_t stream) {
    const dim3 block(32, 8);
    const unsigned rows = (a.height + block.y - 1) / block.y;
    const dim3 grid((a.width + block.x - 1) / block.x, rows < 65535u ? rows : 65535u);
    median_bisect<T><<<grid, block, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_bisect_u8(const MedianBisectArgs& a, cudaStream_t s) {
    return launch<std::uint8_t>(a, s);
}
cudaError_t launch_median_bisect_u16(const MedianBisectArgs& a, cudaStream_t s) {
    return launch<std::uint16_t>(a, s);
}
cudaError_t launch_median_bisect_f32(const MedianBisectArgs& a, cudaStream_t s) {
    return launch<float>(a, s);
}

}  // namespace fastmedian::kernels
