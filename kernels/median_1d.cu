#include "median_1d.cuh"

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kThreads = 128;
constexpr int kBand = 256;  // positions per thread along its line
constexpr int kMaxGridY = 65535;

// Line `line` of the plane: position i is row i of column `line` (columns) or column i of row
// `line`.
template <class T, bool kColumns>
struct Line {
    const char* base;
    std::int64_t step;
    int n;
    int border;
    std::uint32_t outside;
    __device__ Line(const void* plane, std::int64_t pitch, int line, int n_, int border_, std::uint32_t outside_)
        : base(static_cast<const char*>(plane) + (kColumns ? line * sizeof(T) : line * pitch)),
          step(kColumns ? pitch : sizeof(T)), n(n_), border(border_), outside(outside_) {}
    __device__ std::uint32_t key(int i) const {
        std::int64_t j = i;
        if (i < 0 || i >= n) {
            j = border_index(i, n, border);
            if (j < 0) return outside;
        }
        return OrderKey<T>::to_key(*reinterpret_cast<const T*>(base + j * step));
    }
};

template <class T, bool kColumns>
__global__ void __launch_bounds__(kThreads) median_1d(const __grid_constant__ LineArgs a) {
    const int lines = kColumns ? a.width : a.height, n = kColumns ? a.height : a.width;
    const int line = blockIdx.x * blockDim.x + threadIdx.x;
    if (line >= lines) return;
    const Line<T, kColumns> in(a.src, a.src_pitch, line, n, a.border, a.outside_key);
    const int r = a.radius, rank = r;  // window 2r + 1: the median has rank r
    for (int first = blockIdx.y * kBand; first < n; first += gridDim.y * kBand) {
        const int last = min(first + kBand, n);
        // The first window's median by bisection over the key bits.
        std::uint32_t m = 0;
        for (int b = sizeof(T) * 8 - 1; b >= 0; --b) {
            const std::uint32_t trial = m | (1u << b);
            int below = 0;
            for (int i = first - r; i <= first + r; ++i) below += in.key(i) < trial;
            if (below <= rank) m = trial;
        }
        int below = 0, equal = 0;
        for (int i = first - r; i <= first + r; ++i) {
            const std::uint32_t k = in.key(i);
            below += k < m;
            equal += k == m;
        }
        for (int p = first; p < last; ++p) {
            if (p > first) {  // slide: p - r - 1 leaves, p + r enters
                const std::uint32_t gone = in.key(p - r - 1), come = in.key(p + r);
                below += int(come < m) - int(gone < m);
                equal += int(come == m) - int(gone == m);
                while (rank < below) {  // m becomes the largest key below it
                    std::uint32_t next = 0;
                    int count = 0;
                    for (int i = p - r; i <= p + r; ++i) {
                        const std::uint32_t k = in.key(i);
                        const bool lower = k < m;
                        count = lower && k > next ? 1 : count + int(lower && k == next);
                        next = lower && k > next ? k : next;
                    }
                    m = next;
                    below -= count;
                    equal = count;
                }
                while (rank >= below + equal) {  // m becomes the smallest key above it
                    std::uint32_t next = OrderKey<T>::kMaxKey;
                    int count = 0;
                    for (int i = p - r; i <= p + r; ++i) {
                        const std::uint32_t k = in.key(i);
                        const bool upper = k > m;
                        count = upper && k < next ? 1 : count + int(upper && k == next);
                        next = upper && k < next ? k : next;
                    }
                    below += equal;
                    m = next;
                    equal = count;
                }
            }
            const int x = kColumns ? line : p, y = kColumns ? p : line;
            T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + y * a.dst_pitch) + x;
            T pixel = T{};
            if (a.mode.subtract)
                pixel = reinterpret_cast<const T*>(static_cast<const char*>(a.pixels) + y * a.pixels_pitch)[x];
            *out = median_output<T>(pixel, m, a.mode);
        }
    }
}

// Down the columns of 8-bit images: a histogram of the column window per thread in shared
// memory (bin-major, so threads never share a bank), updated by one removal and one addition
// per row; 8-bit counts for windows of up to 255 keys keep 4x more threads resident than
// 32-bit ones would. The next row's keys are loaded before this row's histogram work, so their
// latency overlaps it. (16-bit columns are faster scanned: a coarse/fine histogram measured 5x
// slower, its fine level rebuilt whenever the median changes coarse bin.)
constexpr int kHistogramThreads = 128;
constexpr int kHistogramBand = 128;
constexpr int kBins = 256;

template <class Count>
__global__ void __launch_bounds__(kHistogramThreads) median_columns_histogram(const __grid_constant__ LineArgs a) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const int line = blockIdx.x * kHistogramThreads + threadIdx.x;
    if (line >= a.width) return;
    const Line<std::uint8_t, true> in(a.src, a.src_pitch, line, a.height, a.border, a.outside_key);
    Count* const h = reinterpret_cast<Count*>(shared_bytes) + threadIdx.x;  // bin b at h[b * threads]
    const int r = a.radius, rank = r;
    for (int first = blockIdx.y * kHistogramBand; first < a.height; first += gridDim.y * kHistogramBand) {
        const int last = min(first + kHistogramBand, a.height);
        for (int b = 0; b < kBins; ++b) h[b * kHistogramThreads] = 0;
        for (int i = first - r; i <= first + r; ++i) ++h[in.key(i) * kHistogramThreads];
        int m = 0, below = 0;  // the median's bin, and the counts under it
        std::uint32_t gone = in.key(first - r), come = in.key(first + r + 1);
        for (int p = first; p < last; ++p) {
            if (p > first) {
                const std::uint32_t next_gone = in.key(p - r), next_come = in.key(p + r + 1);
                --h[gone * kHistogramThreads];
                ++h[come * kHistogramThreads];
                below += int(come < std::uint32_t(m)) - int(gone < std::uint32_t(m));
                gone = next_gone;
                come = next_come;
            }
            while (below > rank) below -= h[--m * kHistogramThreads];
            while (below + h[m * kHistogramThreads] <= rank) below += h[m++ * kHistogramThreads];
            std::uint8_t* out = static_cast<std::uint8_t*>(a.dst) + p * a.dst_pitch + line;
            std::uint8_t pixel = 0;
            if (a.mode.subtract) pixel = static_cast<const std::uint8_t*>(a.pixels)[p * a.pixels_pitch + line];
            *out = median_output<std::uint8_t>(pixel, m, a.mode);
        }
    }
}

// dst (width x height) = src (height x width) transposed, through shared-memory tiles; with
// pixels given, the output step median_output(pixels, src^T, mode).
constexpr int kTile = 32;

template <class T>
__global__ void transpose_output(const __grid_constant__ LineArgs a) {
    __shared__ T tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8 threads
    // src holds a.width rows of a.height pixels: src row i, column j is dst pixel (i, j).
    const int sx0 = blockIdx.y * kTile, sy0 = blockIdx.x * kTile;
    for (int j = ty; j < kTile; j += 8) {
        const int sx = sx0 + tx, sy = sy0 + j;
        if (sx < a.height && sy < a.width)
            tile[j][tx] = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + sy * a.src_pitch)[sx];
    }
    __syncthreads();
    for (int j = ty; j < kTile; j += 8) {
        const int x = sy0 + tx, y = sx0 + j;  // dst pixel (x, y) = src (y, x)
        if (x < a.width && y < a.height) {
            const T median = tile[tx][j];
            T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + y * a.dst_pitch) + x;
            if (a.pixels == nullptr) {
                *out = median;
            } else {
                const T pixel = reinterpret_cast<const T*>(static_cast<const char*>(a.pixels) + y * a.pixels_pitch)[x];
                *out = median_output<T>(pixel, OrderKey<T>::to_key(median), a.mode);
            }
        }
    }
}

template <class T>
__global__ void median_output_kernel(const __grid_constant__ LineArgs a) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const T median = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + y * a.src_pitch)[x];
        const T pixel = reinterpret_cast<const T*>(static_cast<const char*>(a.pixels) + y * a.pixels_pitch)[x];
        reinterpret_cast<T*>(static_cast<char*>(a.dst) + y * a.dst_pitch)[x] =
            median_output<T>(pixel, OrderKey<T>::to_key(median), a.mode);
    }
}

template <class T>
cudaError_t launch_1d(const LineArgs& a, bool columns, cudaStream_t stream) {
    const int lines = columns ? a.width : a.height, n = columns ? a.height : a.width;
    const int bands = (n + kBand - 1) / kBand;
    if (columns && sizeof(T) == 1) {
        const int hbands = (n + kHistogramBand - 1) / kHistogramBand;
        const dim3 grid((lines + kHistogramThreads - 1) / kHistogramThreads, hbands < kMaxGridY ? hbands : kMaxGridY);
        if (2 * a.radius + 1 <= 255) {
            median_columns_histogram<std::uint8_t><<<grid, kHistogramThreads, kBins * kHistogramThreads, stream>>>(a);
        } else {  // windows of at most 2047 keys: 16-bit counts
            const std::size_t bytes = std::size_t(kBins) * kHistogramThreads * sizeof(std::uint16_t);
            const cudaError_t e = cudaFuncSetAttribute(median_columns_histogram<std::uint16_t>,
                                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                       static_cast<int>(bytes));
            if (e != cudaSuccess) return e;
            median_columns_histogram<std::uint16_t><<<grid, kHistogramThreads, bytes, stream>>>(a);
        }
        return cudaGetLastError();
    }
    const dim3 grid((lines + kThreads - 1) / kThreads, bands < kMaxGridY ? bands : kMaxGridY);
    if (columns) median_1d<T, true><<<grid, kThreads, 0, stream>>>(a);
    else median_1d<T, false><<<grid, kThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_transpose(const LineArgs& a, cudaStream_t stream) {
    const dim3 grid((a.width + kTile - 1) / kTile, (a.height + kTile - 1) / kTile);
    transpose_output<T><<<grid, dim3(kTile, 8), 0, stream>>>(a);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_output(const LineArgs& a, cudaStream_t stream) {
    const dim3 grid((a.width + kThreads - 1) / kThreads, a.height < kMaxGridY ? a.height : kMaxGridY);
    median_output_kernel<T><<<grid, kThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_1d(const LineArgs& a, int pixel_type, bool columns, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_1d<std::uint8_t>(a, columns, stream);
        case 1: return launch_1d<std::uint16_t>(a, columns, stream);
        default: return launch_1d<float>(a, columns, stream);
    }
}

cudaError_t launch_transpose_output(const LineArgs& a, int pixel_type, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_transpose<std::uint8_t>(a, stream);
        case 1: return launch_transpose<std::uint16_t>(a, stream);
        default: return launch_transpose<float>(a, stream);
    }
}

cudaError_t launch_median_output(const LineArgs& a, int pixel_type, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_output<std::uint8_t>(a, stream);
        case 1: return launch_output<std::uint16_t>(a, stream);
        default: return launch_output<float>(a, stream);
    }
}

}  // namespace fastmedian::kernels
