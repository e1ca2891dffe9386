// The temporal benchmark's device code: the movie generator and the per-pixel sorting baseline
// (see sort_temporal_kernel.hpp).
#include "sort_temporal_kernel.hpp"

#include "temporal_stack.hpp"

namespace bench {

namespace {

template <class T>
__global__ void make_stack(const T* __restrict__ base, T* __restrict__ dst, std::int64_t size,
                           const int* __restrict__ dx, const int* __restrict__ dy) {
    const std::int64_t x = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
    const std::int64_t y = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
    const std::int64_t z = blockIdx.z;
    if (x >= size || y >= size) return;
    dst[(z * size + y) * size + x] =
        stack_pixel(base, size + 2 * kStackMargin, x, y, z, dx[z], dy[z]);
}

template <class K>
__device__ void insertion_sort(K* a, int n) {
    for (int i = 1; i < n; ++i) {
        const K v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
}

template <class K>
__device__ void sift_down(K* a, int root, int end) {
    const K v = a[root];
    for (int child = 2 * root + 1; child < end; child = 2 * root + 1) {
        if (child + 1 < end && a[child] < a[child + 1]) ++child;
        if (!(v < a[child])) break;
        a[root] = a[child];
        root = child;
    }
    a[root] = v;
}

template <class K>
__device__ void heap_sort(K* a, int n) {
    for (int i = n / 2 - 1; i >= 0; --i) sift_down(a, i, n);
    for (int end = n - 1; end > 0; --end) {
        const K t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

template <class T, int MaxN>
__global__ void __launch_bounds__(256)
    sort_temporal(const T* __restrict__ src, T* __restrict__ dst, std::int64_t width,
                  std::int64_t height, std::int64_t row_pixels, std::int64_t plane_pixels,
                  std::int64_t frames, int window, std::int64_t t_begin) {
    using Key = SortKey<T>;
    const std::int64_t x = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
    const std::int64_t y = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
    const std::int64_t t = t_begin + blockIdx.z;
    if (x >= width || y >= height) return;
    const std::int64_t s = window_start(t, frames, window);
    const T* p = src + s * plane_pixels + y * row_pixels + x;
    typename Key::type a[MaxN];
    for (int i = 0; i < window; ++i) a[i] = Key::to(p[i * plane_pixels]);
    if (MaxN <= 64)
        insertion_sort(a, window);
    else
        heap_sort(a, window);
    dst[t * plane_pixels + y * row_pixels + x] = Key::from(a[(window - 1) / 2]);
}

template <class T>
cudaError_t sort_temporal_for(const void* src, void* dst, std::int64_t width, std::int64_t height,
                              std::int64_t row_pixels, std::int64_t plane_pixels,
                              std::int64_t frames, int window, std::int64_t t_begin,
                              std::int64_t t_end, cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((width + 31) / 32),
                    static_cast<unsigned>((height + 7) / 8),
                    static_cast<unsigned>(t_end - t_begin));
    const T* s = static_cast<const T*>(src);
    T* d = static_cast<T*>(dst);
#define FM_BENCH_SORT(MAXN)                                                                \
    sort_temporal<T, MAXN><<<grid, block, 0, stream>>>(s, d, width, height, row_pixels,   \
                                                         plane_pixels, frames, window, t_begin)
    if (window <= 16) FM_BENCH_SORT(16);
    else if (window <= 64) FM_BENCH_SORT(64);
    else if (window <= 256) FM_BENCH_SORT(256);
    else FM_BENCH_SORT(kSortTemporalMaxWindow);
#undef FM_BENCH_SORT
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_make_stack(fastmedian::PixelType type, const void* base, void* dst,
                              std::int64_t size, std::int64_t frames, const int* dx,
                              const int* dy, cudaStream_t stream) {
    if (frames < 1 || frames > 65535) return cudaErrorInvalidValue;
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((size + 31) / 32), static_cast<unsigned>((size + 7) / 8),
                    static_cast<unsigned>(frames));
    switch (type) {
        case fastmedian::PixelType::u8:
            make_stack<<<grid, block, 0, stream>>>(static_cast<const std::uint8_t*>(base),
                                                   static_cast<std::uint8_t*>(dst), size, dx, dy);
            break;
        case fastmedian::PixelType::u16:
            make_stack<<<grid, block, 0, stream>>>(static_cast<const std::uint16_t*>(base),
                                                   static_cast<std::uint16_t*>(dst), size, dx, dy);
            break;
        case fastmedian::PixelType::f32:
            make_stack<<<grid, block, 0, stream>>>(static_cast<const float*>(base),
                                                   static_cast<float*>(dst), size, dx, dy);
            break;
    }
    return cudaGetLastError();
}

cudaError_t launch_sort_temporal(fastmedian::PixelType type, const void* src, void* dst,
                                 std::int64_t width, std::int64_t height, std::int64_t row_pixels,
                                 std::int64_t plane_pixels, std::int64_t frames, int window,
                                 std::int64_t t_begin, std::int64_t t_end, cudaStream_t stream) {
    if (window < 1 || window > kSortTemporalMaxWindow || window > frames || t_begin < 0 ||
        t_end > frames || t_begin >= t_end || t_end - t_begin > 65535 || height > 65535 * 8)
        return cudaErrorInvalidValue;
    switch (type) {
        case fastmedian::PixelType::u8:
            return sort_temporal_for<std::uint8_t>(src, dst, width, height, row_pixels,
                                                   plane_pixels, frames, window, t_begin, t_end,
                                                   stream);
        case fastmedian::PixelType::u16:
            return sort_temporal_for<std::uint16_t>(src, dst, width, height, row_pixels,
                                                    plane_pixels, frames, window, t_begin, t_end,
                                                    stream);
        case fastmedian::PixelType::f32:
            return sort_temporal_for<float>(src, dst, width, height, row_pixels, plane_pixels,
                                            frames, window, t_begin, t_end, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace bench
