#include "median_1d.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "border_index.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kMaxGridY = 65535;
// Bands of rows are at least this long: each starts by building its first window.
constexpr int kMinBand = 64;
// Keys are loaded this many rows ahead of the row that slides in and out. (Loading one row
// ahead, which leaves the register windows' network more registers, ran f32 k = 65 7% faster
// on the H100 but u16 k = 31 10% slower.)
constexpr int kAhead = 4;
// The medians of this many rows gather in a shared tile before the warp writes them out
// transposed: a store then writes 32 pixels of one output row, not one pixel of 32 rows.
constexpr int kTileRows = 32;
// A block's sorted windows take at most this much shared memory.
constexpr std::size_t kMaxSortedShared = 100 * 1024;
// A warp's tile of medians: kTileRows rows of 32 pixels, padded by a word so that lane l
// reading row l finds it in a bank of its own.
template <class T>
constexpr int kWarpTilePitch = 32 * sizeof(T) + 4;

// Where the warps' tiles start in a block's shared memory: after its windows, 16-byte aligned.
template <class Window>
__host__ __device__ std::size_t tiles_offset(int radius, int threads) {
    return (Window::bytes(radius) * threads + 15) / 16 * 16;
}

// Column `line` of the plane, read through the border rule.
template <class T>
struct Column {
    const char* base;
    std::int64_t pitch;
    int n;
    int border;
    std::uint32_t outside;
    __device__ Column(const void* plane, std::int64_t pitch_, int line, int n_, int border_, std::uint32_t outside_)
        : base(static_cast<const char*>(plane) + line * sizeof(T)), pitch(pitch_), n(n_), border(border_),
          outside(outside_) {}
    // Pixel i, through the border rule; the constant border as the pixel whose key it is.
    __device__ T pixel(int i) const {
        const std::int64_t j = border_index(i, n, border);
        return j < 0 ? OrderKey<T>::from_key(outside) : *reinterpret_cast<const T*>(base + j * pitch);
    }
};

// Walks down a Column one row a pixel: a pointer that steps by the pitch, where recomputing the
// row's address (and testing the border) cost about 25 instructions a key (ncu, u8 k = 65:
// the loads were a third of the kernel's instructions). It hands out pixels, not keys: where
// a float's key was computed as it was loaded, the compiler issued each load just before the
// conversion, and f32's register windows spent half their stall samples waiting on them.
template <class T>
struct ColumnCursor {
    const char* at;  // row `row`'s pixel where the row lies inside the column
    int row;
    __device__ ColumnCursor(const Column<T>& c, int row_) : at(c.base + row_ * c.pitch), row(row_) {}
    __device__ T next(const Column<T>& c) {
        const T v = static_cast<unsigned>(row) < static_cast<unsigned>(c.n) ? *reinterpret_cast<const T*>(at)
                                                                              : c.pixel(row);
        at += c.pitch;
        ++row;
        return v;
    }
};

// The window of 8-bit keys as a histogram per thread in shared memory, bin-major, updated by
// one removal and one addition per row, the median bin tracked from the last row's. 8-bit
// counts for windows of up to 255 keys keep 4x more threads resident than 32-bit ones would.
// (Four lanes share a bank here; giving each lane words of its own cost more in addressing
// than it saved: u8 k = 65 went from 49 to 46 Gpix/s.)
template <class Count>
struct HistogramWindow {
    Count* h;  // bin b at h[b * step]
    int step, rank;
    int m = 0, below = 0;  // the median's bin, and the counts under it
    static constexpr int kMinBlocks = 6;  // of 128 threads an SM, as many as 8-bit counts fit
    __host__ __device__ static std::size_t bytes(int /*radius*/) { return 256 * sizeof(Count); }
    __device__ HistogramWindow(unsigned char* shared, int threads, int radius)
        : h(reinterpret_cast<Count*>(shared) + threadIdx.x), step(threads), rank(radius) {}
    __device__ void clear() {
        for (int b = 0; b < 256; ++b) h[b * step] = 0;
        m = 0;
        below = 0;
    }
    __device__ void add(std::uint32_t key, int /*n*/) { ++h[key * step]; }
    __device__ void slide(std::uint32_t gone, std::uint32_t come) {
        --h[gone * step];
        ++h[come * step];
        below += int(come < std::uint32_t(m)) - int(gone < std::uint32_t(m));
    }
    __device__ std::uint32_t median() {
        while (below > rank) below -= h[--m * step];
        while (below + h[m * step] <= rank) below += h[m++ * step];
        return static_cast<std::uint32_t>(m);
    }
};

// Moves n keys one place towards `to`: key to + dir goes to `to`, then to + 2 dir to to + dir...
// Four at a time, their loads issued together (one shared-memory latency for four keys).
template <class Key, int dir>
__device__ __forceinline__ void shift(Key* s, int step, int to, int n) {
    for (; n >= 4; n -= 4, to += 4 * dir) {
        const Key k0 = s[(to + dir) * step], k1 = s[(to + 2 * dir) * step], k2 = s[(to + 3 * dir) * step],
                  k3 = s[(to + 4 * dir) * step];
        s[to * step] = k0;
        s[(to + dir) * step] = k1;
        s[(to + 2 * dir) * step] = k2;
        s[(to + 3 * dir) * step] = k3;
    }
    for (; n > 0; --n, to += dir) s[to * step] = s[(to + dir) * step];
}

// The window of 16-bit or float keys kept sorted per thread in shared memory (key i at
// s[i * step]). A row finds the leaving key by bisection and moves the keys between it and the
// entering key's place one over, about k / 3 on noise and fewer on images; the median is key
// r. (The thread used to keep the median and the counts below and at it, and rescan the
// window whenever the median moved past its ties: 7.1 and 4.5 Gpix/s for u16 and f32 at
// k = 65 on the H100, against 18.2 and 20.9.)
template <class Key>
struct SortedWindow {
    Key* s;
    int step, r, last, top;  // top: the bisections' first step, the largest power of 2 <= k
    static constexpr int kMinBlocks = 4;  // shared memory holds them to fewer
    __host__ __device__ static std::size_t bytes(int radius) { return std::size_t(2 * radius + 1) * sizeof(Key); }
    __device__ SortedWindow(unsigned char* shared, int threads, int radius)
        : s(reinterpret_cast<Key*>(shared) + threadIdx.x), step(threads), r(radius), last(2 * radius), top(1) {
        while (2 * top <= last + 1) top *= 2;
    }
    __device__ void clear() {}
    __device__ void add(std::uint32_t key, int n) {  // key n of the first window, by insertion
        int h = n;
        for (; h > 0 && s[(h - 1) * step] > key; --h) s[h * step] = s[(h - 1) * step];
        s[h * step] = static_cast<Key>(key);
    }
    __device__ void slide(std::uint32_t gone, std::uint32_t come) {
        // g: the leaving key's place (the first key not below it); c: the first key not below
        // the entering one. Keys equal to the entering one may lie either side of it: ties
        // are interchangeable.
        int g = 0, c = 0;
        for (int half = top; half > 0; half >>= 1) {  // both bisections at once
            if (g + half <= last && s[(g + half - 1) * step] < gone) g += half;
            if (c + half <= last + 1 && s[(c + half - 1) * step] < come) c += half;
        }
        if (c <= g) {  // keys c .. g - 1 move up one, the entering one goes to c
            shift<Key, -1>(s, step, g, g - c);
            s[c * step] = static_cast<Key>(come);
        } else {  // keys g + 1 .. c - 1 move down one, the entering one goes to c - 1
            shift<Key, 1>(s, step, g, c - 1 - g);
            s[(c - 1) * step] = static_cast<Key>(come);
        }
    }
    __device__ std::uint32_t median() const { return s[r * step]; }
};

// The window of 16-bit or float keys kept sorted in registers, for windows of up to N keys:
// the N - k spare places hold the smallest and the largest key, half each, so that place
// N / 2 holds the median of the k real keys. A row takes the leaving key out and puts the
// entering one in by a network of about 4 N operations: no branches, so a warp's lanes never
// wait for each other, and no shared memory (SortedWindow's shifts cost a lane about k / 3
// loads and stores a row, and a warp the most any of its lanes moved).
template <int N>
struct RegisterWindow {
    static_assert(N % 2 == 1, "an odd number of places");
    std::uint32_t s[N];
    int low;  // spare places at the bottom
    // 4 blocks of 128 threads an SM hold the 65-key network to 128 registers (168 unbounded,
    // 12 warps an SM: f32 k = 65 ran 10% slower); the 129-key one needs about 200.
    static constexpr int kMinBlocks = N <= 65 ? 4 : 2;
    __host__ __device__ static std::size_t bytes(int /*radius*/) { return 0; }
    __device__ RegisterWindow(unsigned char* /*shared*/, int /*threads*/, int radius) : low((N - 2 * radius - 1) / 2) {}
    __device__ void clear() {
#pragma unroll
        for (int i = 0; i < N; ++i) s[i] = i < low ? 0u : 0xFFFFFFFFu;
    }
    __device__ void add(std::uint32_t key, int /*n*/) {  // key in, the top place's largest key out
#pragma unroll
        for (int i = N - 1; i > 0; --i) s[i] = min(s[i], max(s[i - 1], key));
        s[0] = min(s[0], key);
    }
    // One pass up the places: t, key i of the window without the leaving key (its first copy:
    // copies are alike), then place i of the window with the entering key, min(t_i, max(t_i-1,
    // come)). Place i is written once i and i + 1 have been read, so the window needs no copy.
    __device__ void slide(std::uint32_t gone, std::uint32_t come) {
        std::uint32_t below = s[0] < gone ? s[0] : s[1];
        s[0] = min(below, come);
#pragma unroll
        for (int i = 1; i < N - 1; ++i) {
            const std::uint32_t t = s[i] < gone ? s[i] : s[i + 1];
            s[i] = min(t, max(below, come));
            below = t;
        }
        s[N - 1] = max(below, come);
    }
    __device__ std::uint32_t median() const { return s[N / 2]; }
};

// One thread per column of src walks bands of rows down it, a Window holding the column's
// window of 2r + 1 rows; the medians go to dst transposed (src column x is dst row x), or,
// where a.mode subtracts, a.pixels' pixel - median + offset (median_output). Each warp
// transposes its own 32 columns through a tile of its own, so warps never wait for each other
// (a block-wide tile's barriers held a sixth of the u8 kernel's stall samples). Lanes past the
// last column walk column 0 and write nothing. Blocks of at most 128 threads.
template <class T, class Window>
__global__ void __launch_bounds__(128, Window::kMinBlocks)
    median_columns(const __grid_constant__ LineArgs a, int band) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const int threads = blockDim.x, lane = threadIdx.x % 32;
    const int warp_line0 = blockIdx.x * threads + threadIdx.x - lane;  // the warp's first column
    if (warp_line0 >= a.width) return;
    const int line = threadIdx.x + blockIdx.x * threads;
    const int r = a.radius;
    Window w(shared_bytes, threads, r);
    // The warp's tile: row q of its medians at tile + q * pitch.
    constexpr int pitch = kWarpTilePitch<T>;
    unsigned char* const tile =
        shared_bytes + tiles_offset<Window>(r, threads) + threadIdx.x / 32 * (kTileRows * pitch);
    const Column<T> in(a.src, a.src_pitch, line < a.width ? line : 0, a.height, a.border, a.outside_key);
    const int columns = min(32, a.width - warp_line0);  // the warp's live columns
    for (int first = blockIdx.y * band; first < a.height; first += gridDim.y * band) {
        const int last = min(first + band, a.height);
        ColumnCursor<T> start_rows(in, first - 1 - r);
        w.clear();  // the window of row first - 1, its pixels loaded eight at a time
        int n = 0;
        for (; n + 8 <= 2 * r + 1; n += 8) {
            T pixels[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) pixels[i] = start_rows.next(in);
#pragma unroll
            for (int i = 0; i < 8; ++i) w.add(OrderKey<T>::to_key(pixels[i]), n + i);
        }
        for (; n <= 2 * r; ++n) w.add(OrderKey<T>::to_key(start_rows.next(in)), n);
        // The pixels leaving and entering the window, kAhead rows ahead of the rows that slide;
        // rows past the band read in the image or its border.
        ColumnCursor<T> leaving(in, first - r - 1), entering(in, first + r);
        T gone[kAhead], come[kAhead];
#pragma unroll
        for (int i = 0; i < kAhead; ++i) {
            gone[i] = leaving.next(in);
            come[i] = entering.next(in);
        }
        for (int start = first; start < last; start += kTileRows) {
            const int rows = min(kTileRows, last - start);
            for (int q = 0; q < rows; q += kAhead) {
                T next_gone[kAhead], next_come[kAhead];
#pragma unroll
                for (int i = 0; i < kAhead; ++i) {
                    next_gone[i] = leaving.next(in);
                    next_come[i] = entering.next(in);
                }
#pragma unroll
                for (int i = 0; i < kAhead; ++i) {
                    if (q + i < rows) {
                        w.slide(OrderKey<T>::to_key(gone[i]), OrderKey<T>::to_key(come[i]));
                        reinterpret_cast<T*>(tile + (q + i) * pitch)[lane] =
                            OrderKey<T>::from_key(w.median());
                    }
                    gone[i] = next_gone[i];
                    come[i] = next_come[i];
                }
            }
            __syncwarp();
            // Lane l writes pixel start + l of the warp's rows (its columns), one row a step.
            if (lane < rows) {
                const std::int64_t x = std::int64_t{start} + lane;
                const T* median = reinterpret_cast<const T*>(tile + lane * pitch);
                char* out = static_cast<char*>(a.dst) + warp_line0 * a.dst_pitch + x * sizeof(T);
                if (!a.mode.subtract) {
                    for (int j = 0; j < columns; ++j, out += a.dst_pitch) *reinterpret_cast<T*>(out) = median[j];
                } else {
                    const char* pixel =
                        static_cast<const char*>(a.pixels) + warp_line0 * a.pixels_pitch + x * sizeof(T);
                    for (int j = 0; j < columns; ++j, out += a.dst_pitch, pixel += a.pixels_pitch)
                        *reinterpret_cast<T*>(out) = median_output<T>(*reinterpret_cast<const T*>(pixel),
                                                                      OrderKey<T>::to_key(median[j]), a.mode);
                }
            }
            __syncwarp();
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

// Launches median_columns<T, Window> with bands of rows long enough that the grid fills the
// GPU once: a second, part-filled wave of blocks cost u8 k = 65 a fifth of its time on the
// H100 (1024 blocks of 128-row bands, 924 resident). Blocks of 128 threads, fewer where their
// windows would take more than kMaxSortedShared (k = 1023 f32 takes 32).
template <class T, class Window>
cudaError_t launch_columns(const LineArgs& a, cudaStream_t stream) {
    const std::size_t window_bytes = Window::bytes(a.radius);
    int threads = 128;
    while (threads > 32 && window_bytes * threads > kMaxSortedShared) threads /= 2;
    const std::size_t shared =
        tiles_offset<Window>(a.radius, threads) + std::size_t(threads / 32) * kTileRows * kWarpTilePitch<T>;
    const auto kernel = median_columns<T, Window>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    int device = 0, sms = 0, per_sm = 0;
    if (e == cudaSuccess) e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared);
    if (e != cudaSuccess) return e;
    const int across = (a.width + threads - 1) / threads;
    const int fit = std::max(1, per_sm * sms / across);  // bands resident at once
    const int band = std::max(kMinBand, (a.height + fit - 1) / fit);
    const int bands = std::min((a.height + band - 1) / band, kMaxGridY);
    kernel<<<dim3(across, bands), threads, shared, stream>>>(a, band);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_columns_of(const LineArgs& a, cudaStream_t stream) {
    const int k = 2 * a.radius + 1;
    if constexpr (sizeof(T) == 1) {
        if (k <= 255) return launch_columns<T, HistogramWindow<std::uint8_t>>(a, stream);
        return launch_columns<T, HistogramWindow<std::uint16_t>>(a, stream);  // k <= 1023
    } else {
        if (k <= 33) return launch_columns<T, RegisterWindow<33>>(a, stream);
        if (k <= 65) return launch_columns<T, RegisterWindow<65>>(a, stream);
        if (k <= 129) return launch_columns<T, RegisterWindow<129>>(a, stream);
        using Key = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;
        return launch_columns<T, SortedWindow<Key>>(a, stream);
    }
}

template <class T>
cudaError_t launch_output(const LineArgs& a, cudaStream_t stream) {
    constexpr int threads = 128;
    const dim3 grid((a.width + threads - 1) / threads, a.height < kMaxGridY ? a.height : kMaxGridY);
    median_output_kernel<T><<<grid, threads, 0, stream>>>(a);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_columns(const LineArgs& a, int pixel_type, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_columns_of<std::uint8_t>(a, stream);
        case 1: return launch_columns_of<std::uint16_t>(a, stream);
        default: return launch_columns_of<float>(a, stream);
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
