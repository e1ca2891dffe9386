#include "median_histogram.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kThreads = 64;
constexpr int kRowsPerThread = 128;
constexpr int kBins = 256;

template <class T>
struct Source {
    const PlanesArgs& a;
    const char* plane;
    __device__ std::uint32_t key(int x, int y) const {
        std::int64_t sx = x, sy = y;
        if (x < 0 || x >= a.width || y < 0 || y >= a.height) {
            sx = border_index(x, a.width, a.border);
            sy = border_index(y, a.height, a.border);
            if (sx < 0 || sy < 0) return a.outside_key;
        }
        return reinterpret_cast<const T*>(plane + sy * a.src_pitch)[sx];
    }
};

// A thread's histogram: 16-bit counts, two bins to a word, word b / 2 at words[b / 2 * kThreads]
// (so threads never share a bank). Counts change by shared-memory atomics whose result is not
// used: the thread does not wait on them, where a read-modify-write would wait on each, in case
// the next touches the same bin.
struct Histogram {
    unsigned* words;
    __device__ unsigned* word(int b) const { return words + (b >> 1) * kThreads; }
    __device__ static unsigned one(int b) { return 1u << ((b & 1) * 16); }
    __device__ int operator[](int b) const { return (*word(b) >> ((b & 1) * 16)) & 0xFFFF; }
    __device__ void add(int b) const { atomicAdd(word(b), one(b)); }
    __device__ void remove(int b) const { atomicSub(word(b), one(b)); }  // never below 0: no borrow
    __device__ void clear() const {
        for (int w = 0; w < kBins / 2; ++w) words[w * kThreads] = 0;
    }
};

// Moves median bin m (with `below` counts under it) until it holds rank `rank`.
__device__ __forceinline__ void settle(const Histogram& h, int rank, int& m, int& below) {
    while (below > rank) {
        --m;
        below -= h[m];
    }
    while (below + h[m] <= rank) {
        below += h[m];
        ++m;
    }
}

__device__ void store_key(const PlanesArgs& a, int x, int y, std::uint32_t key, int bytes) {
    char* row = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride + y * a.dst_pitch;
    if (bytes == 1) reinterpret_cast<std::uint8_t*>(row)[x] = static_cast<std::uint8_t>(key);
    else reinterpret_cast<std::uint16_t*>(row)[x] = static_cast<std::uint16_t>(key);
}

__global__ void __launch_bounds__(kThreads) median_histogram_u8(const __grid_constant__ PlanesArgs a,
                                                                const __grid_constant__ ColumnsWindow w) {
    extern __shared__ unsigned shared_counts[];
    const int x = blockIdx.x * kThreads + threadIdx.x;
    if (x >= a.width) return;
    const Source<std::uint8_t> src{a, static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride};
    const Histogram h{shared_counts + threadIdx.x};
    const int y0 = blockIdx.y * kRowsPerThread, y1 = min(y0 + kRowsPerThread, a.height);
    h.clear();
    for (int dx = -w.radius_x; dx <= w.radius_x; ++dx) {
        const int hh = w.half_height[dx + w.radius_x];
        for (int dy = -hh; dy <= hh; ++dy) h.add(src.key(x + dx, y0 + dy));
    }
    int m = 0, below = 0;
    settle(h, w.rank, m, below);
    store_key(a, x, y0, m, 1);
    for (int y = y0 + 1; y < y1; ++y) {
#pragma unroll 4
        for (int dx = -w.radius_x; dx <= w.radius_x; ++dx) {
            const int hh = w.half_height[dx + w.radius_x];
            const int gone = src.key(x + dx, y - 1 - hh), come = src.key(x + dx, y + hh);
            h.remove(gone);
            h.add(come);
            below += int(come < m) - int(gone < m);
        }
        settle(h, w.rank, m, below);
        store_key(a, x, y, m, 1);
    }
}

// u16: coarse histogram of key >> 8; fine histogram of key & 255 for the median's coarse bin.
__global__ void __launch_bounds__(kThreads) median_histogram_u16(const __grid_constant__ PlanesArgs a,
                                                                 const __grid_constant__ ColumnsWindow w) {
    extern __shared__ unsigned shared_counts[];
    const int x = blockIdx.x * kThreads + threadIdx.x;
    if (x >= a.width) return;
    const Source<std::uint16_t> src{a, static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride};
    const Histogram coarse{shared_counts + threadIdx.x};
    const Histogram fine{shared_counts + kBins / 2 * kThreads + threadIdx.x};
    const int y0 = blockIdx.y * kRowsPerThread, y1 = min(y0 + kRowsPerThread, a.height);
    int cm = 0, cbelow = 0, fm = 0, fbelow = 0;  // coarse bin and fine bin of the median
    // The fine histogram of coarse bin cm over the window of row y, and its median bin.
    auto rebuild_fine = [&](int y) {
        fine.clear();
        for (int dx = -w.radius_x; dx <= w.radius_x; ++dx) {
            const int hh = w.half_height[dx + w.radius_x];
            for (int dy = -hh; dy <= hh; ++dy) {
                const std::uint32_t k = src.key(x + dx, y + dy);
                if (int(k >> 8) == cm) fine.add(k & 255);
            }
        }
        fm = 0;
        fbelow = 0;
        settle(fine, w.rank - cbelow, fm, fbelow);
    };
    coarse.clear();
    for (int dx = -w.radius_x; dx <= w.radius_x; ++dx) {
        const int hh = w.half_height[dx + w.radius_x];
        for (int dy = -hh; dy <= hh; ++dy) coarse.add(src.key(x + dx, y0 + dy) >> 8);
    }
    settle(coarse, w.rank, cm, cbelow);
    rebuild_fine(y0);
    store_key(a, x, y0, (cm << 8) | fm, 2);
    for (int y = y0 + 1; y < y1; ++y) {
#pragma unroll 4
        for (int dx = -w.radius_x; dx <= w.radius_x; ++dx) {
            const int hh = w.half_height[dx + w.radius_x];
            const std::uint32_t gone = src.key(x + dx, y - 1 - hh), come = src.key(x + dx, y + hh);
            const int gc = gone >> 8, cc = come >> 8, gf = gone & 255, cf = come & 255;
            coarse.remove(gc);
            coarse.add(cc);
            cbelow += int(cc < cm) - int(gc < cm);
            if (gc == cm) {
                fine.remove(gf);
                fbelow -= int(gf < fm);
            }
            if (cc == cm) {
                fine.add(cf);
                fbelow += int(cf < fm);
            }
        }
        const int old = cm;
        settle(coarse, w.rank, cm, cbelow);
        if (cm != old) rebuild_fine(y);
        else settle(fine, w.rank - cbelow, fm, fbelow);
        store_key(a, x, y, (cm << 8) | fm, 2);
    }
}

template <class Kernel>
cudaError_t launch(Kernel kernel, int histograms, const PlanesArgs& a, const ColumnsWindow& w,
                   cudaStream_t stream) {
    const std::size_t bytes = std::size_t(histograms) * kBins / 2 * kThreads * sizeof(unsigned);
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes));
    if (e != cudaSuccess) return e;
    const dim3 grid((a.width + kThreads - 1) / kThreads,
                    (a.height + kRowsPerThread - 1) / kRowsPerThread, a.planes);
    kernel<<<grid, kThreads, bytes, stream>>>(a, w);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_histogram_u8(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream) {
    return launch(median_histogram_u8, 1, a, w, stream);
}

cudaError_t launch_median_histogram_u16(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream) {
    return launch(median_histogram_u16, 2, a, w, stream);
}

}  // namespace fastmedian::kernels
