#include "median_bisect.cuh"

#include "median_histogram.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"

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
                              const __grid_constant__ RunsWindow w) {
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

// Window keys gathered by median_refine before it falls back to bisection.
constexpr int kGather = 16;

// See launch_median_refine_f32.
__global__ void median_refine_f32(const __grid_constant__ PlanesArgs a, const __grid_constant__ RunsWindow w,
                                  const std::uint32_t* info, const std::uint16_t* groups, std::int64_t pitch,
                                  const std::uint32_t* values) {
    const std::uint32_t count = info[0];
    if (count <= kMaxRanks) return;
    const int shift = rank_group_shift(count);
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    const char* plane = static_cast<const char*>(a.src);
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        const std::uint32_t group = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const char*>(groups) + y * pitch)[x];
        std::uint32_t first = group << shift, last = min((group + 1) << shift, count) - 1;
        // The window's keys below the group, and those in it (the first kGather of them).
        const std::uint32_t low = values[first], high = values[last];
        int below = 0, in = 0;
        std::uint32_t gathered[kGather];
        for (int dy = -w.radius_y; dy <= w.radius_y; ++dy) {
            const int hw = w.half_width[dy + w.radius_y];
            for (int dx = -hw; dx <= hw; ++dx) {
                const std::uint32_t key = window_key<float>(a, plane, x + dx, y + dy);
                below += key < low;
                if (key >= low && key <= high) {
                    if (in < kGather) gathered[in] = key;
                    ++in;
                }
            }
        }
        const int want = w.rank - below;  // the median's rank among the group's keys
        std::uint32_t median = 0;
        if (in <= kGather) {
            for (int i = 0; i < in; ++i) {
                int less = 0, equal = 0;
                for (int j = 0; j < in; ++j) {
                    less += gathered[j] < gathered[i];
                    equal += gathered[j] == gathered[i];
                }
                if (less <= want && want < less + equal) median = gathered[i];
            }
        } else {  // the smallest of the group's values with more than `rank` window keys at most it
            while (first < last) {
                const std::uint32_t mid = first + (last - first) / 2;
                if (count_at_most<float>(a, w, plane, x, y, values[mid]) > w.rank) last = mid;
                else first = mid + 1;
            }
            median = values[first];
        }
        reinterpret_cast<float*>(static_cast<char*>(a.dst) + y * a.dst_pitch)[x] = OrderKey<float>::from_key(median);
    }
}

// Threads of 32 x 8 outputs, as many rows of blocks as the grid allows, planes along z.
dim3 grid_of(const PlanesArgs& a, dim3 block) {
    const unsigned rows = (a.height + block.y - 1) / block.y;
    return dim3((a.width + block.x - 1) / block.x, rows < 65535u ? rows : 65535u, a.planes);
}

template <class T>
cudaError_t launch(const PlanesArgs& a, const RunsWindow& w, cudaStream_t stream) {
    const dim3 block(32, 8);
    median_bisect<T><<<grid_of(a, block), block, 0, stream>>>(a, w);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_bisect_u8(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint8_t>(a, w, s);
}
cudaError_t launch_median_bisect_u16(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<std::uint16_t>(a, w, s);
}
cudaError_t launch_median_bisect_f32(const PlanesArgs& a, const RunsWindow& w, cudaStream_t s) {
    return launch<float>(a, w, s);
}

cudaError_t launch_median_refine_f32(const PlanesArgs& a, const RunsWindow& w, const std::uint32_t* info,
                                     const std::uint16_t* groups, std::int64_t pitch,
                                     const std::uint32_t* values, cudaStream_t s) {
    const dim3 block(32, 8);
    median_refine_f32<<<grid_of(a, block), block, 0, s>>>(a, w, info, groups, pitch, values);
    return cudaGetLastError();
}

}  // namespace fastmedian::kernels
