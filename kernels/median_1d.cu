#include "median_1d.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "device_sms.cuh"
#include "generated/median_column_tiles.cuh"
#include "gpu_policy.hpp"
#include "median_lanes.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kMaxGridY = 65535;
// Bands of rows are at least this long: each starts by building its first window.
constexpr int kMinBand = 64;
// Sliding windows load their keys this many rows ahead of the row that slides in and out, so
// that the loads overlap the slides before them.
constexpr int kAhead = 4;
// The medians of this many rows gather in a shared tile before the warp writes them out
// transposed: a store then writes 32 pixels of one output row, not one pixel of 32 rows.
constexpr int kTileRows = 32;
// A warp's tile of medians: kTileRows rows of the warp's 32 x cols pixels, padded by a word
// so that lane l reading row l finds it in a bank of its own.
template <class T, int cols = 1>
constexpr int kWarpTilePitch = 32 * cols * sizeof(T) + 4;

// Where the warps' tiles start in a block's shared memory: after its threads' windows (of
// window_bytes each), 16-byte aligned.
__host__ __device__ inline std::size_t tiles_offset(std::size_t window_bytes, int threads) {
    return (window_bytes * threads + 15) / 16 * 16;
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
// conversion, and f32's windows (then sorted in registers) spent half their stall samples
// waiting on them.
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
// than it saved: docs/notebook/separable-h100-2026-11-23.md.)
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
// window whenever the median moved past its ties: much slower for u16 and f32;
// docs/notebook/separable-h100-2026-11-23.md.)
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

// Writes a warp's tile of medians (row q of `rows`: the medians of output rows start + q of
// the warp's `columns` columns) transposed: lane l writes pixel start + l of each of the warp's
// rows of dst, or where a.mode subtracts, median_output of a.pixels' pixel there.
template <class T>
__device__ __forceinline__ void write_tile(const LineArgs& a, const unsigned char* tile, int pitch, int warp_line0,
                                           int columns, int start, int rows) {
    const int lane = threadIdx.x % 32;
    if (lane >= rows) return;
    const std::int64_t x = std::int64_t{start} + lane;
    const T* median = reinterpret_cast<const T*>(tile + lane * pitch);
    char* out = static_cast<char*>(a.dst) + warp_line0 * a.dst_pitch + x * sizeof(T);
    if (!a.mode.subtract) {
        for (int j = 0; j < columns; ++j, out += a.dst_pitch) *reinterpret_cast<T*>(out) = median[j];
    } else {
        const char* pixel = static_cast<const char*>(a.pixels) + warp_line0 * a.pixels_pitch + x * sizeof(T);
        for (int j = 0; j < columns; ++j, out += a.dst_pitch, pixel += a.pixels_pitch)
            *reinterpret_cast<T*>(out) =
                median_output<T>(*reinterpret_cast<const T*>(pixel), OrderKey<T>::to_key(median[j]), a.mode);
    }
}

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
    // The block's windows: in shared memory, or in a.windows, a block's after another's.
    unsigned char* const windows =
        a.windows == nullptr
            ? shared_bytes
            : static_cast<unsigned char*>(a.windows) +
                  (std::size_t(blockIdx.y) * gridDim.x + blockIdx.x) * threads * Window::bytes(r);
    Window w(windows, threads, r);
    // The warp's tile: row q of its medians at tile + q * pitch.
    constexpr int pitch = kWarpTilePitch<T>;
    unsigned char* const tile = shared_bytes + (a.windows == nullptr ? tiles_offset(Window::bytes(r), threads) : 0) +
                                threadIdx.x / 32 * (kTileRows * pitch);
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
            write_tile<T>(a, tile, pitch, warp_line0, columns, start, rows);
            __syncwarp();
        }
    }
}

// Slots of a network's tile (see median_column_tiles.cuh): a row-table entry each.
template <class Net>
constexpr int kTileSlots = Net::kWindow + Net::kTile - 1;

// Shared memory of a median_columns_tiled block: the warps' tiles of medians, then the warps'
// row tables; for the kernel and its launch alike.
template <class T, class Net, int cols>
struct TiledShared {
    static constexpr int kTileBytes = kTileRows * kWarpTilePitch<T, cols>;
    __host__ __device__ static constexpr std::size_t rows_at(int warps) { return std::size_t(warps) * kTileBytes; }
    __host__ __device__ static constexpr std::size_t bytes(int warps) {
        return rows_at(warps) + std::size_t(warps) * kTileSlots<Net> * sizeof(int);
    }
};

// The same walk for windows of up to Net::kWindow rows, Net::kTile rows at a time: a tile's
// medians come from one generated network (median_column_tiles.cuh) that shares the sorting
// its outputs' windows have in common, about 51 min/max an output for k = 65 where sliding
// a sorted window costs about 260. Needs k >= Net::kTile - 1. A thread walks L::kCols
// columns: pairs of 8- or 16-bit ones (PackedLanes) where pairs_fit, one otherwise. Tiles
// whose rows reach past the image read them through a table of rows in the warp's shared memory.
template <class T, class Net, class L, int MinBlocks>
__global__ void __launch_bounds__(128, MinBlocks) median_columns_tiled(const __grid_constant__ LineArgs a, int band) {
    static_assert(kTileRows % Net::kTile == 0, "networks fill a warp's tile");
    static_assert(L::kCols == 1 || sizeof(T) <= 2, "pairs of keys of up to 16 bits");
    constexpr int kSlots = kTileSlots<Net>, cols = L::kCols;
    // What a load reads: a pixel, or a pair of them.
    using Word = std::conditional_t<cols == 1, T, std::conditional_t<sizeof(T) == 1, std::uint16_t, std::uint32_t>>;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int warp_line0 = (blockIdx.x * blockDim.x + threadIdx.x - lane) * cols;  // the warp's first column
    if (warp_line0 >= a.width) return;
    const int line = warp_line0 + lane * cols;
    const int r = a.radius;
    // The core's slots past its k - kTile + 1 rows are pads, half the smallest key, half the
    // largest.
    const int core_rows = 2 * r + 2 - Net::kTile, low_pads = (Net::kWindow - 2 * r - 1) / 2;
    constexpr int pitch = kWarpTilePitch<T, cols>;
    using Shared = TiledShared<T, Net, cols>;
    unsigned char* const tile = shared_bytes + warp * Shared::kTileBytes;
    int* const rows_at = reinterpret_cast<int*>(shared_bytes + Shared::rows_at(blockDim.x / 32)) + warp * kSlots;
    const char* const column = static_cast<const char*>(a.src) + (line < a.width ? line : 0) * sizeof(T);
    const std::uint32_t outside = cols == 1 ? a.outside_key : a.outside_key * 0x10001u;
    const int columns = min(32 * cols, a.width - warp_line0);
    for (int first = blockIdx.y * band; first < a.height; first += gridDim.y * band) {
        const int last = min(first + band, a.height);
        for (int start = first; start < last; start += kTileRows) {
            for (int q = 0; q < kTileRows && start + q < last; q += Net::kTile) {
                const int y0 = start + q;
                // Slot s's row: y0 - r + s below the outputs and in the core, y0 + r + 1 +
                // s - kWindow above them.
                auto row = [&](int s) { return s < Net::kWindow ? y0 - r + s : y0 + r + 1 + s - Net::kWindow; };
                auto pad = [&](int s, std::uint32_t& keys) {
                    const int i = s - (Net::kTile - 1);
                    if (s < Net::kTile - 1 || s >= Net::kWindow || i < core_rows) return false;
                    keys = i - core_rows < low_pads ? 0u : 0xFFFFFFFFu;
                    return true;
                };
                auto keys_at = [&](std::int64_t j) {
                    const Word w = *reinterpret_cast<const Word*>(column + j * a.src_pitch);
                    if constexpr (cols == 1) return OrderKey<T>::to_key(w);
                    else if constexpr (sizeof(T) == 1) return __byte_perm(w, 0, 0x4140);  // bytes to halves
                    else return std::uint32_t{w};
                };
                auto out = [&](int j, std::uint32_t keys) {
                    unsigned char* at = tile + (q + j) * pitch + lane * cols * sizeof(T);
                    if constexpr (cols == 1) *reinterpret_cast<T*>(at) = OrderKey<T>::from_key(keys);
                    else if constexpr (sizeof(T) == 1)
                        *reinterpret_cast<std::uint16_t*>(at) = __byte_perm(keys, 0, 0x20);  // halves to bytes
                    else *reinterpret_cast<std::uint32_t*>(at) = keys;
                };
                if (y0 - r >= 0 && y0 + Net::kTile - 1 + r < a.height) {  // every row inside the image
                    Net::template run<L>(
                        [&](int s) {
                            std::uint32_t keys;
                            return pad(s, keys) ? keys : keys_at(row(s));
                        },
                        out);
                } else {
                    __syncwarp();
                    for (int s = lane; s < kSlots; s += 32)
                        rows_at[s] = static_cast<int>(border_index(row(s), a.height, a.border));
                    __syncwarp();
                    Net::template run<L>(
                        [&](int s) {
                            std::uint32_t keys;
                            if (pad(s, keys)) return keys;
                            const int j = rows_at[s];
                            return j < 0 ? outside : keys_at(j);
                        },
                        out);
                }
            }
            __syncwarp();
            write_tile<T>(a, tile, pitch, warp_line0, columns, start, min(kTileRows, last - start));
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

// Launches kernel (median_columns or median_columns_tiled) on blocks of `threads` threads
// covering block_columns columns, with `shared` bytes (past 48 KiB the caller has allowed them),
// on bands of `band` rows.
template <class Kernel>
cudaError_t launch_bands(Kernel kernel, int threads, int block_columns, std::size_t shared, int band, const LineArgs& a,
                         cudaStream_t stream) {
    const int across = (a.width + block_columns - 1) / block_columns;
    const int bands = std::min((a.height + band - 1) / band, kMaxGridY);
    kernel<<<dim3(across, bands), threads, shared, stream>>>(a, band);
    return cudaGetLastError();
}

// How median_columns runs a Window: blocks of 128 threads, fewer where their windows would take
// more than the policy's share (SlidingPolicy: k = 1023 f32 takes 32 threads in 100 KB) or than
// the GPU allows a block. Where even 32 threads' windows do not fit (f32 past k = 741 on the
// 99 KB of RTX cards), the windows go to device memory the caller gives (LineArgs::windows):
// blocks of 128 threads, at most kGlobalThreads threads' windows at once, which bounds that
// memory (64 MiB at k = 1023 f32).
struct ColumnsPlan {
    int threads;
    std::size_t shared;
    std::size_t windows;  // bytes of device memory for the windows, 0 where they are in shared memory
    int bands;            // 0: as many as fill the GPU once
};
constexpr int kGlobalThreads = 16384;

template <class T, class Window>
ColumnsPlan plan_columns(const LineArgs& a) {
    const std::size_t window_bytes = Window::bytes(a.radius);
    const auto kernel = median_columns<T, Window>;
    auto shared_of = [&](int threads, bool windows) {
        return (windows ? tiles_offset(window_bytes, threads) : 0) +
               std::size_t(threads / 32) * kTileRows * kWarpTilePitch<T>;
    };
    int threads = 128;
    while (threads > 32 &&
           (window_bytes * threads > active_policy().sliding.separable_windows ||
            !shared_fits(kernel, shared_of(threads, true))))
        threads /= 2;
    if (shared_fits(kernel, shared_of(threads, true))) return {threads, shared_of(threads, true), 0, 0};
    const int across = (a.width + 127) / 128;
    const int bands = std::max(1, std::min((a.height + kMinBand - 1) / kMinBand, kGlobalThreads / (128 * across)));
    return {128, shared_of(128, false), std::size_t(across) * bands * 128 * window_bytes, bands};
}

// Bands of rows long enough that the grid fills the GPU once, for each band starts by building
// its windows: a second, part-filled wave of blocks cost u8 k = 65 a large share of its time
// (1024 blocks of 128-row bands, 924 resident; docs/notebook/separable-h100-2026-11-23.md).
template <class T, class Window>
cudaError_t launch_columns(const LineArgs& a, cudaStream_t stream) {
    const auto kernel = median_columns<T, Window>;
    const ColumnsPlan plan = plan_columns<T, Window>(a);
    if (plan.windows > 0 && a.windows == nullptr) return cudaErrorInvalidValue;
    int sms = 0, per_sm = 0;
    cudaError_t e = opt_in_shared(kernel, plan.shared);
    if (e == cudaSuccess) e = current_sm_count(sms);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, plan.threads, plan.shared);
    if (e != cudaSuccess) return e;
    const int fit = plan.bands > 0 ? plan.bands
                                   : std::max(1, per_sm * sms / ((a.width + plan.threads - 1) / plan.threads));
    const int band = std::max(kMinBand, (a.height + fit - 1) / fit);
    LineArgs b = a;
    if (plan.windows == 0) b.windows = nullptr;
    return launch_bands(kernel, plan.threads, plan.threads, plan.shared, band, b, stream);
}

// The device memory launch_columns_of<T> needs for its windows (0: none).
template <class T>
std::size_t windows_bytes_of(const LineArgs& a) {
    if constexpr (sizeof(T) == 1) {
        return 0;  // tiles, or histograms, which fit
    } else {
        using Key = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;
        return 2 * a.radius + 1 <= 129 ? 0 : plan_columns<T, SortedWindow<Key>>(a).windows;
    }
}

// median_columns_tiled: bands of one warp tile's rows, as they cost nothing to start, so that
// many small blocks even out the slower tiles at the image's top and bottom.
template <class T, class Net, class L, int MinBlocks>
cudaError_t launch_tiled(const LineArgs& a, cudaStream_t stream) {
    constexpr int threads = 128, warps = threads / 32;
    constexpr std::size_t shared = TiledShared<T, Net, L::kCols>::bytes(warps);
    static_assert(shared <= 48 * 1024, "within the dynamic shared memory a launch gets unasked");
    return launch_bands(median_columns_tiled<T, Net, L, MinBlocks>, threads, threads * L::kCols, shared, kTileRows, a,
                        stream);
}

// The smallest network serving k (k >= its tile - 1). 32-output tiles hold about 115 keys
// live: 3 blocks an SM for 32-bit keys (168 registers) ran faster than 2; packed u16 pairs
// spilled a little at 3 and run 2, which was faster
// (docs/notebook/separable-h100-2026-11-24b.md).
template <class T, class L>
cudaError_t launch_tiles(const LineArgs& a, int k, cudaStream_t stream) {
    constexpr int wide = L::kCols == 1 ? 3 : 2;
    if (k <= ColumnTile1x1::kWindow) return launch_tiled<T, ColumnTile1x1, L, 4>(a, stream);
    if (k <= ColumnTile7x4::kWindow) return launch_tiled<T, ColumnTile7x4, L, 4>(a, stream);
    if (k <= ColumnTile15x8::kWindow) return launch_tiled<T, ColumnTile15x8, L, 4>(a, stream);
    if (k <= ColumnTile33x16::kWindow) return launch_tiled<T, ColumnTile33x16, L, 4>(a, stream);
    if (k <= ColumnTile65x32::kWindow) return launch_tiled<T, ColumnTile65x32, L, wide>(a, stream);
    return launch_tiled<T, ColumnTile129x32, L, 2>(a, stream);
}

// Whether the columns of an 8- or 16-bit image can be read in pairs (PackedLanes): every
// row's pairs aligned, none half outside.
template <class T>
bool pairs_fit(const LineArgs& a) {
    static_assert(sizeof(T) <= 2, "pairs of keys of up to 16 bits");
    return a.width % 2 == 0 && a.src_pitch % (2 * sizeof(T)) == 0 &&
           reinterpret_cast<std::uintptr_t>(a.src) % (2 * sizeof(T)) == 0;
}

// Tiles for k <= 129; u8 takes them up to 65 where its columns pair up: faster than its
// histograms at k = 65, slower at 129 (docs/notebook/separable-h100-2026-11-24b.md). Past that,
// u8 histograms and u16 / f32 sorted windows.
template <class T>
cudaError_t launch_columns_of(const LineArgs& a, cudaStream_t stream) {
    const int k = 2 * a.radius + 1;
    if (k <= (sizeof(T) == 1 ? 65 : 129)) {
        if constexpr (sizeof(T) <= 2) {
            if (pairs_fit<T>(a)) return launch_tiles<T, PackedLanes>(a, k, stream);
        }
        if constexpr (sizeof(T) > 1) return launch_tiles<T, ScalarLanes>(a, k, stream);
    }
    if constexpr (sizeof(T) == 1) {
        if (k <= 255) return launch_columns<T, HistogramWindow<std::uint8_t>>(a, stream);
        return launch_columns<T, HistogramWindow<std::uint16_t>>(a, stream);  // k <= 1023
    } else {
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

std::size_t median_columns_windows_bytes(const LineArgs& a, int pixel_type) {
    switch (pixel_type) {
        case 0: return windows_bytes_of<std::uint8_t>(a);
        case 1: return windows_bytes_of<std::uint16_t>(a);
        default: return windows_bytes_of<float>(a);
    }
}

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
