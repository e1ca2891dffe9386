#include "median_histogram.cuh"

#include <algorithm>

#include "border_index.cuh"

namespace fastmedian::kernels {

namespace {

// A block: 32 output columns, 4 threads (lanes) to each, for a band of rows (band_rows). The lanes of an
// output split the window's columns (lane p takes columns p, p + 4, ...) and update the one
// histogram of their output by shared-memory atomics, then settle its median alike. Four lanes
// to an output keep four times the warps resident for the same shared memory (the histograms
// limit residency); u8 k=65 on the H100 went from 1.7 to 6.6 Gpix/s
// (bench/results/background-h100-2026-11-23.md).
constexpr int kOutputs = 32;
constexpr int kLanes = 4;
constexpr int kThreads = kOutputs * kLanes;
constexpr int kBins = 256;  // u8
// Bin word i of output o lies at words[i * kStride + o]. kStride = 8 (mod 32) puts the lanes of
// different outputs of a warp in different banks whatever the bins.
constexpr int kStride = kOutputs + 32 / kLanes;

// 32-bit counts, one bin to a word (u8).
struct Bins32 {
    static constexpr int kWords = kBins;
    unsigned* words;
    __device__ int operator[](int b) const { return static_cast<int>(words[b * kStride]); }
    __device__ void add(int b) const { atomicAdd(words + b * kStride, 1u); }
    __device__ void remove(int b) const { atomicSub(words + b * kStride, 1u); }
};

// 16-bit counts, two bins to a word (u16, which keeps two histograms per output).
template <int kBinCount>
struct Bins16 {
    static constexpr int kSize = kBinCount;
    static constexpr int kWords = kBinCount / 2;
    unsigned* words;
    __device__ unsigned* word(int b) const { return words + (b >> 1) * kStride; }
    __device__ static unsigned one(int b) { return 1u << ((b & 1) * 16); }
    __device__ int operator[](int b) const { return (*word(b) >> ((b & 1) * 16)) & 0xFFFF; }
    __device__ void add(int b) const { atomicAdd(word(b), one(b)); }
    __device__ void remove(int b) const { atomicSub(word(b), one(b)); }  // never below 0: no borrow
};

// A u16 output's two histograms: coarse bins of key >> kFineBits, then fine bins of the low
// kFineBits bits; the kernel and its launch (which sizes the shared memory) both take them here.
template <int kFineBits>
struct U16Bins {
    using Coarse = Bins16<(65536 >> kFineBits)>;
    using Fine = Bins16<(1 << kFineBits)>;
    static constexpr int kWords = Coarse::kWords + Fine::kWords;
    static_assert(Coarse::kSize * Fine::kSize == 65536, "the two histograms split the 16-bit keys");
};

// Moves median bin m (with `below` counts under it) until it holds rank `rank`.
template <class Bins>
__device__ __forceinline__ void settle(const Bins& h, int rank, int& m, int& below) {
    while (below > rank) {
        --m;
        below -= h[m];
    }
    while (below + h[m] <= rank) {
        below += h[m];
        ++m;
    }
}

// The block's view of one plane: column t of the block's span (from bx - radius_x) reads image
// column cols[t]; -1 (constant border) reads the outside value, as does a row out of the image.
template <class T>
struct Plane {
    const char* base;
    const PlanesArgs& a;
    const int* cols;
    int outside;  // the key outside the image (constant border)
    __device__ const T* row(int y) const {
        const std::int64_t sy = border_index(y, a.height, a.border);
        return sy < 0 ? nullptr : reinterpret_cast<const T*>(base + sy * a.src_pitch);
    }
    __device__ int key(int t, int y) const {
        const T* r = row(y);
        const int c = cols[t];
        return r == nullptr || c < 0 ? outside : r[c];
    }
};

// The lanes of this thread's output, and the sum of v over them.
__device__ unsigned lanes_mask() { return 0xFu << (threadIdx.x % 32 & ~(kLanes - 1)); }
__device__ int lanes_sum(int v, unsigned mask) {
    for (int s = 1; s < kLanes; s <<= 1) v += __shfl_xor_sync(mask, v, s);
    return v;
}

template <class T>
__device__ void store(const PlanesArgs& a, int x, int y, int value) {
    char* row = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride + y * a.dst_pitch;
    reinterpret_cast<T*>(row)[x] = static_cast<T>(value);
}

// What every kernel starts with: the block's column table, zeroed histograms (`words` words per
// output), and this thread's output column, lane and band.
template <class T>
struct Start {
    int o, lane, x, y0, y1;
    bool inside;  // every column of the block's windows lies in the image
    unsigned mask;
    Plane<T> src;
};

template <class T>
__device__ Start<T> start(const PlanesArgs& a, const ColumnsWindow& w, unsigned* shared, int words,
                          int outside, int band) {
    int* cols = reinterpret_cast<int*>(shared + words * kStride);
    const int bx = blockIdx.x * kOutputs, span = kOutputs + 2 * w.radius_x;
    for (int t = threadIdx.x; t < span; t += kThreads)
        cols[t] = static_cast<int>(border_index(bx - w.radius_x + t, a.width, a.border));
    for (int i = threadIdx.x; i < words * kStride; i += kThreads) shared[i] = 0;
    __syncthreads();
    Start<T> s{static_cast<int>(threadIdx.x) / kLanes, static_cast<int>(threadIdx.x) % kLanes, 0, 0, 0,
               bx - w.radius_x >= 0 && bx + kOutputs - 1 + w.radius_x < a.width, lanes_mask(),
               Plane<T>{static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride, a, cols, outside}};
    s.x = bx + s.o;
    s.y0 = blockIdx.y * band;
    s.y1 = min(s.y0 + band, a.height);
    return s;
}

// Calls f(gone, come) for each window column of this lane when the window moves from row y - 1
// to row y: the key leaving the column's top and the one entering below its bottom. Squares
// (every column as tall) in blocks inside the image read straight along the two rows.
template <bool kSquare, class T, class F>
__device__ __forceinline__ void slide(const Start<T>& s, const ColumnsWindow& w, int y, F&& f) {
    const int rx = w.radius_x;
    if (kSquare && s.inside) {
        const int hh = w.half_height[0], top = y - 1 - hh;
        const T* gone;
        const T* come;
        if (top >= 0 && y + hh < s.src.a.height) {  // rows of the image: no border rule to apply
            const char* row = s.src.base + top * s.src.a.src_pitch;
            gone = reinterpret_cast<const T*>(row);
            come = reinterpret_cast<const T*>(row + (2 * hh + 1) * s.src.a.src_pitch);
        } else {
            gone = s.src.row(top);
            come = s.src.row(y + hh);
        }
        if (gone != nullptr && come != nullptr) {
            gone += s.x - rx + s.lane;
            come += s.x - rx + s.lane;
            // Pointers stepped, not indexed: the unrolled loads then take immediate offsets.
            // The lanes share one trip count and the last column is a predicated tail: trip
            // counts of 8, 8, 8, 7 (k = 31) put lane 3 alone in the unrolled loop's remainder,
            // and the warp ran both, at half the speed of k = 33.
            const int full = (2 * rx + 1) / kLanes;
#pragma unroll 8
            for (int j = 0; j < full; ++j, gone += kLanes, come += kLanes) f(int(*gone), int(*come));
            if (s.lane + kLanes * full <= 2 * rx) f(int(*gone), int(*come));
            return;
        }
    }
    // The same trip count for the four lanes here too, the columns past the window skipped.
#pragma unroll 4
    for (int i = s.lane; i - s.lane <= 2 * rx; i += kLanes) {
        if (i > 2 * rx) continue;
        const int hh = w.half_height[kSquare ? 0 : i];
        f(s.src.key(s.o + i, y - 1 - hh), s.src.key(s.o + i, y + hh));
    }
}

// Calls f(key) for each value at row y of output o's window columns first, first + step, ...
// Columns whose rows all lie in the image step down them by pointer.
template <class T, class F>
__device__ void each_value(const Start<T>& s, const ColumnsWindow& w, int o, int first, int step, int y, F&& f) {
    const PlanesArgs& a = s.src.a;
    for (int i = first; i <= 2 * w.radius_x; i += step) {
        const int hh = w.half_height[i], c = s.src.cols[o + i];
        if (c >= 0 && y - hh >= 0 && y + hh < a.height) {
            const char* p = s.src.base + (y - hh) * a.src_pitch + c * std::int64_t(sizeof(T));
            for (int dy = -hh; dy <= hh; ++dy, p += a.src_pitch) f(int(*reinterpret_cast<const T*>(p)));
        } else {
            for (int dy = -hh; dy <= hh; ++dy) f(s.src.key(o + i, y + dy));
        }
    }
}

// The sum of v over this lane and the lanes of its output before it.
__device__ __forceinline__ int lanes_prefix(int v, int lane, unsigned mask) {
    for (int d = 1; d < kLanes; d <<= 1) {
        const int t = __shfl_up_sync(mask, v, d, kLanes);
        if (lane >= d) v += t;
    }
    return v;
}

// settle() by the four lanes of an output, four bins a step: the median of float ranks moves by
// tens of fine bins a row, and one bin a step waits on a shared load each. The histogram's
// bins [0, kSize) must hold the rank.
template <class Bins>
__device__ __forceinline__ void settle_lanes(const Bins& h, int rank, int& m, int& below, int lane,
                                             unsigned mask) {
    const int group = threadIdx.x % 32 & ~(kLanes - 1);
    while (below > rank) {  // bins m - 1 - lane, nearest first
        const int b = m - 1 - lane;
        const int sum = lanes_prefix(b >= 0 ? h[b] : 0, lane, mask);
        const unsigned hit = __ballot_sync(mask, below - sum <= rank) >> group & 0xFu;
        const int j = hit != 0 ? __ffs(hit) - 1 : kLanes - 1;
        below -= __shfl_sync(mask, sum, j, kLanes);
        m -= j + 1;
    }
    for (;;) {  // bins m + lane
        const int b = m + lane;
        const int here = b < Bins::kSize ? h[b] : 0;
        const int sum = lanes_prefix(here, lane, mask);
        const unsigned hit = __ballot_sync(mask, below + sum > rank) >> group & 0xFu;
        if (hit != 0) {
            const int j = __ffs(hit) - 1;
            below += __shfl_sync(mask, sum - here, j, kLanes);
            m += j;
            return;
        }
        below += __shfl_sync(mask, sum, kLanes - 1, kLanes);
        m += kLanes;
    }
}

// Every lane stays to the end, so that the warp's syncs and sums take all 32 lanes, not a mask
// found at run time: outputs past the image's right edge run on its border's columns and
// store nothing.
template <bool kSquare>
__global__ void __launch_bounds__(kThreads) median_histogram_u8(const __grid_constant__ PlanesArgs a,
                                                                const __grid_constant__ ColumnsWindow w, int band) {
    extern __shared__ unsigned shared[];
    const Start<std::uint8_t> s = start<std::uint8_t>(a, w, shared, Bins32::kWords, int(a.outside_key), band);
    const bool live = s.x < a.width && s.lane == 0;  // stores the output
    const Bins32 h{shared + s.o};
    each_value(s, w, s.o, s.lane, kLanes, s.y0, [&](int k) { h.add(k); });
    __syncwarp();
    int m = 0, below = 0;
    settle(h, w.rank, m, below);
    if (live) store<std::uint8_t>(a, s.x, s.y0, m);
    // Squares in blocks inside the image, rows of the image: a lane's first kAhead keys of the
    // next row load before this row settles, so the row starts on keys at hand. u8 k = 65 on
    // the H100: 7.9 Gpix/s without, 8.7 with (16 keys), 8.5 with 8. This loop repeats slide()'s
    // on purpose: slide() taking the keys ahead compiled to fewer registers and ran slower
    // (k = 65: 8.24 against 8.61; bench/results/exact-large-h100-2026-11-24b.md).
    constexpr int kAhead = 16;
    const int rx = w.radius_x, hh = w.half_height[0], full = (2 * rx + 1) / kLanes;
    const std::int64_t pitch = a.src_pitch;
    const bool ahead = kSquare && s.inside && full >= kAhead;
    auto interior = [&](int y) { return y - 1 - hh >= 0 && y + hh < a.height; };
    auto gone_row = [&](int y) {
        return reinterpret_cast<const std::uint8_t*>(s.src.base + (y - 1 - hh) * pitch) + s.x - rx + s.lane;
    };
    int pg[kAhead], pc[kAhead];
    auto prefetch = [&](int y) {
        const std::uint8_t* g = gone_row(y);
        const std::uint8_t* c = g + (2 * hh + 1) * pitch;
#pragma unroll
        for (int i = 0; i < kAhead; ++i) {
            pg[i] = g[kLanes * i];
            pc[i] = c[kLanes * i];
        }
    };
    bool have = false;
    for (int y = s.y0 + 1; y < s.y1; ++y) {
        __syncwarp();  // every lane has settled before the histogram changes
        int delta = 0;
        auto f = [&](int gone, int come) {
            h.remove(gone);
            h.add(come);
            // come < m counts one more below the median, gone < m one fewer (signs of k - m).
            delta += ((gone - m) >> 31) - ((come - m) >> 31);
        };
        if (ahead && interior(y)) {
            if (!have) prefetch(y);
#pragma unroll
            for (int i = 0; i < kAhead; ++i) f(pg[i], pc[i]);
            const std::uint8_t* g = gone_row(y) + kLanes * kAhead;
            const std::uint8_t* c = g + (2 * hh + 1) * pitch;
#pragma unroll 8
            for (int j = kAhead; j < full; ++j, g += kLanes, c += kLanes) f(int(*g), int(*c));
            if (s.lane + kLanes * full <= 2 * rx) f(int(*g), int(*c));
            have = y + 1 < s.y1 && interior(y + 1);
            if (have) prefetch(y + 1);
        } else {
            slide<kSquare>(s, w, y, f);
            have = false;
        }
        below += lanes_sum(delta, ~0u);
        __syncwarp();
        settle(h, w.rank, m, below);
        if (live) store<std::uint8_t>(a, s.x, y, m);
    }
}

// The bin of rank t in a histogram of 16-bit counts that holds it, by the whole warp, and the
// count below that bin: (below << 16) | bin. After a rebuild the median's fine bin may lie
// anywhere: each lane sums a 32nd of the bins, and the lane whose share holds the rank walks
// it (settle_lanes from bin 0 took kFine / 4 dependent steps).
template <class Bins>
__device__ __forceinline__ unsigned find_rank(const Bins& h, int t) {
    constexpr int kPer = Bins::kSize / 32;
    const int lane = threadIdx.x % 32;
    int count[kPer], sum = 0;
#pragma unroll
    for (int i = 0; i < kPer / 2; ++i) {
        const unsigned word = h.words[(lane * kPer / 2 + i) * kStride];
        count[2 * i] = word & 0xFFFF;
        count[2 * i + 1] = word >> 16;
        sum += count[2 * i] + count[2 * i + 1];
    }
    int upto = sum;  // this lane's share and those before it
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int v = __shfl_up_sync(~0u, upto, d);
        if (lane >= d) upto += v;
    }
    int below = upto - sum, bin = lane * kPer;
    bool on = true;
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
        on = on && below + count[i] <= t;
        if (on) {
            below += count[i];
            ++bin;
        }
    }
    const int owner = __ffs(__ballot_sync(~0u, upto - sum <= t && t < upto)) - 1;
    return __shfl_sync(~0u, unsigned(below) << 16 | bin, owner);
}

// u16: a coarse histogram of key >> kFineBits and a fine one of the low kFineBits bits for the
// median's coarse bin, rebuilt from the whole window when the median changes coarse bin. A
// rebuild reads the whole window, so the whole warp does it, each output's in turn (one
// output's four lanes alone would hold the warp up eight times as long: u16 k=65 went from
// 0.27 to 0.43 Gpix/s, floats through ranks from 0.63 to 0.81).
// Keys that are dense ranks (median_ranks.cuh) come with `ranked`: {distinct values, the
// constant border's rank}; the kernel then runs only where there are ranks.
template <bool kSquare, int kFineBits>
__global__ void __launch_bounds__(kThreads) median_histogram_u16(const __grid_constant__ PlanesArgs a,
                                                                 const __grid_constant__ ColumnsWindow w,
                                                                 const std::uint32_t* ranked, int band) {
    if (ranked != nullptr && ranked[0] > kMaxRanks) return;
    extern __shared__ unsigned shared[];
    constexpr int kFine = 1 << kFineBits;
    using Coarse = typename U16Bins<kFineBits>::Coarse;
    using Fine = typename U16Bins<kFineBits>::Fine;
    const int outside = static_cast<int>(ranked != nullptr ? ranked[1] : a.outside_key);
    const Start<std::uint16_t> s = start<std::uint16_t>(a, w, shared, U16Bins<kFineBits>::kWords, outside, band);
    // Every lane stays for the warp's rebuilds: outputs past the image's edge run on the
    // border's columns and store nothing.
    const bool live = s.x < a.width && s.lane == 0;  // stores the output
    const Coarse coarse{shared + s.o};
    unsigned* const fine_words = shared + Coarse::kWords * kStride;
    const Fine fine{fine_words + s.o};
    const int warp_lane = threadIdx.x % 32, warp_output = (threadIdx.x - warp_lane) / kLanes;
    int cm = 0, cbelow = 0, fm = 0, fbelow = 0;  // coarse bin and fine bin of the median
    // The fine histograms of the warp's outputs that `need` one, from the windows of row y, and
    // their medians' fine bins.
    auto rebuild = [&](bool need, int y) {
        for (unsigned todo = __ballot_sync(~0u, need && s.lane == 0); todo != 0; todo &= todo - 1) {
            const int leader = __ffs(todo) - 1;
            const int hi = __shfl_sync(~0u, cm, leader);
            const Fine h{fine_words + warp_output + leader / kLanes};
            for (int i = warp_lane; i < Fine::kWords; i += 32) h.words[i * kStride] = 0;
            __syncwarp();
            each_value(s, w, warp_output + leader / kLanes, warp_lane, 32, y, [&](int k) {
                if ((k >> kFineBits) == hi) h.add(k & (kFine - 1));
            });
            __syncwarp();
            const unsigned found = find_rank(h, w.rank - __shfl_sync(~0u, cbelow, leader));
            if (warp_lane / kLanes == leader / kLanes) {
                fm = static_cast<int>(found & 0xFFFF);
                fbelow = static_cast<int>(found >> 16);
            }
        }
    };
    each_value(s, w, s.o, s.lane, kLanes, s.y0, [&](int k) { coarse.add(k >> kFineBits); });
    __syncwarp();
    settle(coarse, w.rank, cm, cbelow);
    rebuild(true, s.y0);
    if (live) store<std::uint16_t>(a, s.x, s.y0, (cm << kFineBits) | fm);
    for (int y = s.y0 + 1; y < s.y1; ++y) {
        __syncwarp();
        int cdelta = 0, fdelta = 0;
        slide<kSquare>(s, w, y, [&](int gone, int come) {
            const int gc = gone >> kFineBits, cc = come >> kFineBits, gf = gone & (kFine - 1), cf = come & (kFine - 1);
            coarse.remove(gc);
            coarse.add(cc);
            cdelta += ((gc - cm) >> 31) - ((cc - cm) >> 31);  // as in the u8 kernel
            if (gc == cm) {
                fine.remove(gf);
                fdelta += (gf - fm) >> 31;
            }
            if (cc == cm) {
                fine.add(cf);
                fdelta -= (cf - fm) >> 31;
            }
        });
        // Both sums in one word: each within +-2 x 289 columns.
        const int both = lanes_sum(fdelta + cdelta * 65536, ~0u);
        const int fsum = int(unsigned(both) << 16) >> 16;
        fbelow += fsum;
        cbelow += (both - fsum) / 65536;
        __syncwarp();
        const int old = cm;
        settle(coarse, w.rank, cm, cbelow);
        const bool need = cm != old;
        __syncwarp();
        rebuild(need, y);
        const int t = w.rank - cbelow;  // the median's rank among the fine keys
        if (!need && (fbelow > t || fbelow + fine[fm] <= t)) settle_lanes(fine, t, fm, fbelow, s.lane, s.mask);
        if (live) store<std::uint16_t>(a, s.x, y, (cm << kFineBits) | fm);
    }
}

// Every column of the window as tall?
bool square(const ColumnsWindow& w) {
    for (int i = 1; i <= 2 * w.radius_x; ++i)
        if (w.half_height[i] != w.half_height[0]) return false;
    return true;
}

// Rows a band: each band starts by building its whole first window (k^2 / 4 keys a lane, as
// many as k / 2 rows' slides), and more, shorter bands spread better over the SMs. On the
// H100, u8 k = 65: bands of 256 rows 7.3, of 96 rows 7.9 Gpix/s. Multiples of 32 rows, at
// least k (a last band of one row would cost a whole first window).
int band_rows(int k) { return (std::max(96, k) + 31) / 32 * 32; }

template <class Kernel, class... Extra>
cudaError_t launch(Kernel kernel, int words, int band, const PlanesArgs& a, const ColumnsWindow& w,
                   cudaStream_t stream, Extra... extra) {
    const std::size_t bytes = (std::size_t(words) * kStride + kOutputs + 2 * w.radius_x) * sizeof(unsigned);
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes));
    if (e != cudaSuccess) return e;
    const dim3 grid((a.width + kOutputs - 1) / kOutputs, (a.height + band - 1) / band, a.planes);
    kernel<<<grid, kThreads, bytes, stream>>>(a, w, extra..., band);
    return cudaGetLastError();
}

template <int kFineBits>
cudaError_t launch_u16(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream, const std::uint32_t* ranked,
                       int band) {
    constexpr int words = U16Bins<kFineBits>::kWords;
    return square(w) ? launch(median_histogram_u16<true, kFineBits>, words, band, a, w, stream, ranked)
                     : launch(median_histogram_u16<false, kFineBits>, words, band, a, w, stream, ranked);
}

}  // namespace

cudaError_t launch_median_histogram_u8(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream) {
    const int band = band_rows(2 * w.radius_x + 1);
    return square(w) ? launch(median_histogram_u8<true>, Bins32::kWords, band, a, w, stream)
                     : launch(median_histogram_u8<false>, Bins32::kWords, band, a, w, stream);
}

// Windows 48 and wider take fine histograms of 512 bins, in bands of 384 rows: the median
// leaves a fine histogram half as often as one of 256 bins, and each band starts by building
// every output's. On the H100 (4096^2, bench/results/exact-large-h100-2026-11-24b.md), f32
// through ranks k = 65 went from 0.87 to 1.04 Gpix/s and k = 129 from 0.43 to 0.57; at k = 31
// the fewer warps resident cost more (1.73 against 1.40).
cudaError_t launch_median_histogram_u16(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream,
                                        const std::uint32_t* ranked) {
    const int k = 2 * w.radius_x + 1;
    return k >= 48 ? launch_u16<9>(a, w, stream, ranked, std::max(384, band_rows(k)))
                   : launch_u16<8>(a, w, stream, ranked, band_rows(k));
}

}  // namespace fastmedian::kernels
