#include "median_histogram.cuh"

#include <algorithm>

#include "output_lanes.cuh"
#include "semantics/border_index.hpp"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

// A block: 32 output columns, 4 threads (lanes) to each, for a band of rows (band_rows). The lanes
// of an output split the window's columns (lane p takes columns p, p + 4, ...) and update the one
// histogram of their output by shared-memory atomics, then settle its median alike. Four lanes to
// an output keep four times the warps resident for the same shared memory (the histograms limit
// residency); u8 k = 65 ran several times as fast (docs/notebook/background-h100-2026-11-23.md).
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

// 16-bit counts, two bins to a word (u16: its fine histograms, and its coarse one for a band's
// first window).
template <int kBinCount>
struct Bins16 {
    static constexpr int kSize = kBinCount;
    static constexpr int kWords = kBinCount / 2;
    unsigned* words;
    __device__ unsigned* word(int b) const { return words + (b >> 1) * kStride; }
    __device__ static unsigned one(int b) { return 1u + (b & 1) * 0xFFFFu; }  // 1 << 16 for odd bins
    __device__ int operator[](int b) const { return (*word(b) >> ((b & 1) * 16)) & 0xFFFF; }
    __device__ void add(int b) const { atomicAdd(word(b), one(b)); }
};

// A u16 output's histograms: coarse bins of key >> kFineBits, fine bins of the low kFineBits
// bits; the kernel and its launch (which sizes the shared memory) both take them here.
template <int kFineBits>
struct U16Bins {
    using Coarse = Bins16<(65536 >> kFineBits)>;
    using Fine = Bins16<(1 << kFineBits)>;
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

// This thread's output pixel down the band, a row a put(); only `live` lanes store. The address
// recomputed every row cost the u16 kernel about 25 instructions a row.
template <class T>
struct Out {
    char* at;
    std::int64_t pitch;
    bool live;
    __device__ Out(const PlanesArgs& a, int x, int y, bool live)
        : at(static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride + y * a.dst_pitch + x * std::int64_t(sizeof(T))),
          pitch(a.dst_pitch),
          live(live) {}
    __device__ void put(int value) {
        if (live) *reinterpret_cast<T*>(at) = static_cast<T>(value);
        at += pitch;
    }
};

// What every kernel starts with: the block's column table, zeroed histograms (`words` words per
// output), and this thread's output column, lane and band.
template <class T>
struct Start {
    int o, lane, x, y0, y1;
    bool inside;  // every column of the block's windows lies in the image
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
               bx - w.radius_x >= 0 && bx + kOutputs - 1 + w.radius_x < a.width,
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

// Calls f(key) for each value of the block's column t from row y0 to y1, stepping down the
// column by pointer where its rows all lie in the image.
template <class T, class F>
__device__ __forceinline__ void each_in_rows(const Start<T>& s, int t, int y0, int y1, F&& f) {
    const PlanesArgs& a = s.src.a;
    const int c = s.src.cols[t];
    if (c >= 0 && y0 >= 0 && y1 < a.height) {
        const char* p = s.src.base + y0 * a.src_pitch + c * std::int64_t(sizeof(T));
        for (int y = y0; y <= y1; ++y, p += a.src_pitch) f(int(*reinterpret_cast<const T*>(p)));
    } else {
        for (int y = y0; y <= y1; ++y) f(s.src.key(t, y));
    }
}

// The same for rows y - hh to y + hh.
template <class T, class F>
__device__ __forceinline__ void each_in_column(const Start<T>& s, int t, int hh, int y, F&& f) {
    each_in_rows(s, t, y - hh, y + hh, f);
}

// Calls f(key) for each value at row y of output o's window columns first, first + step, ...
template <class T, class F>
__device__ void each_value(const Start<T>& s, const ColumnsWindow& w, int o, int first, int step, int y, F&& f) {
    for (int i = first; i <= 2 * w.radius_x; i += step) each_in_column(s, o + i, w.half_height[i], y, f);
}

// Can first_windows() build these windows? Squares at least 9 columns wide.
__host__ __device__ bool shares_columns(bool square, const ColumnsWindow& w) { return square && w.radius_x >= 4; }

// The window histograms (`words` words each, zeroed) of a warp's eight outputs at row y, for
// squares: the window columns that all eight share are split over the warp's 32 lanes, each
// adding (`add`) into its own output's histogram, so that a warp's adds fall in different
// banks; the eight partial histograms are summed and every output takes the sum; then each
// output adds its seven columns outside the shared ones. Each output building its own window
// read k^2 / 4 keys a lane; this, k (k - 7) / 32 + 7k / 4.
template <class T, class Add>
__device__ void first_windows(const Start<T>& s, const ColumnsWindow& w, unsigned* shared, int words, int y,
                              Add&& add) {
    constexpr int kEight = 32 / kLanes, kOwn = kEight - 1;  // a warp's outputs; columns of an output's own
    static_assert(kEight == 8, "a bin's words of a warp's outputs are two uint4");
    const int warp_lane = threadIdx.x % 32, first = s.o & ~kOwn, d = s.o - first;
    const int rx = w.radius_x, hh = w.half_height[0];
    for (int t = first + kOwn + warp_lane; t <= first + 2 * rx; t += 32) each_in_column(s, t, hh, y, add);
    __syncwarp();
    for (int i = warp_lane; i < words; i += 32) {  // 16-byte aligned: kStride and kEight words are multiples of 4
        uint4* p = reinterpret_cast<uint4*>(shared + i * kStride + first);
        const uint4 l = p[0], h = p[1];
        const unsigned sum = l.x + l.y + l.z + l.w + h.x + h.y + h.z + h.w;
        p[0] = p[1] = make_uint4(sum, sum, sum, sum);
    }
    __syncwarp();
    // The columns left of the shared ones, o ... first + 6, then right of them, first + 2rx + 1 ...
    // o + 2rx.
    for (int j = s.lane; j < kOwn; j += kLanes)
        each_in_column(s, j < kOwn - d ? s.o + j : first + 2 * rx + 1 + j - (kOwn - d), hh, y, add);
}

// settle() for the outputs that `move`, by the four lanes of each, four bins a step: the median
// of float ranks moves by tens of fine bins a row, and one bin a step waits on a shared load
// each. The whole warp takes every step, so that its shuffles and votes take all 32 lanes: a
// call by the moving outputs' lanes alone, with their mask, ran the votes serialised (ncu, u16
// k = 65: a quarter of the kernel's stall samples). The histogram's bins [0, kSize) must hold
// the rank.
template <class Bins>
__device__ __forceinline__ void settle_lanes(const Bins& h, int rank, int& m, int& below, int lane, bool move) {
    const int group = threadIdx.x % 32 & ~(kLanes - 1);
    bool down = move && below > rank;
    while (__any_sync(~0u, down)) {  // bins m - 1 - lane, nearest first
        const int b = m - 1 - lane;
        const int sum = lanes_prefix<kLanes>(down && b >= 0 ? h[b] : 0, lane);
        const unsigned hit = __ballot_sync(~0u, below - sum <= rank) >> group & 0xFu;
        const int j = hit != 0 ? __ffs(hit) - 1 : kLanes - 1;
        const int step = __shfl_sync(~0u, sum, j, kLanes);
        if (down) {
            below -= step;
            m -= j + 1;
            down = below > rank;
        }
    }
    bool up = move;
    while (__any_sync(~0u, up)) {  // bins m + lane
        const int b = m + lane;
        const int here = up && b < Bins::kSize ? h[b] : 0;
        const int sum = lanes_prefix<kLanes>(here, lane);
        const unsigned hit = __ballot_sync(~0u, below + sum > rank) >> group & 0xFu;
        const int j = hit != 0 ? __ffs(hit) - 1 : kLanes;  // the rank's bin is m + j
        const int prior = __shfl_sync(~0u, sum, (j - 1) & (kLanes - 1), kLanes);  // counts of bins m ... m + j - 1
        if (up) {
            below += j == 0 ? 0 : prior;
            m += j;
            up = hit == 0;
        }
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
    Out<std::uint8_t> out(a, s.x, s.y0, s.x < a.width && s.lane == 0);
    const Bins32 h{shared + s.o};
    if (shares_columns(kSquare, w))
        first_windows(s, w, shared, Bins32::kWords, s.y0, [&](int k) { h.add(k); });
    else
        each_value(s, w, s.o, s.lane, kLanes, s.y0, [&](int k) { h.add(k); });
    __syncwarp();
    int m = 0, below = 0;
    settle(h, w.rank, m, below);
    out.put(m);
    // Squares in blocks inside the image, rows of the image: a lane's first kAhead keys of the
    // next row load before this row settles, so the row starts on keys at hand: faster than
    // none or 8 (docs/notebook/exact-large-h100-2026-11-24.md). This loop repeats slide()'s
    // on purpose: slide() taking the keys ahead compiled to fewer registers and ran slower
    // (docs/notebook/exact-large-h100-2026-11-24b.md).
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
        below += lanes_sum<kLanes>(delta);
        __syncwarp();
        settle(h, w.rank, m, below);
        out.put(m);
    }
}

// Where rank t of a 16-bit-count histogram lies, found by the whole warp: each lane sums a
// 32nd of the bins, a prefix sum over the lanes finds the lane whose share holds the rank, and
// that lane walks its bins in registers (the four lanes of an output walking from bin 0 took
// kSize / 4 dependent steps). A negative t counts from the top: rank total + t.
struct Found {
    int bin, below, total;  // the rank's bin and the count below it (if the rank lies inside), all counts
};
template <class Bins>
__device__ __forceinline__ Found find_rank(const Bins& h, int t) {
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
    const int total = __shfl_sync(~0u, upto, 31);
    if (t < 0) t += total;
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
    const unsigned owners = __ballot_sync(~0u, upto - sum <= t && t < upto);
    const unsigned found = __shfl_sync(~0u, unsigned(below) << 16 | bin, owners != 0 ? __ffs(owners) - 1 : 0);
    return {int(found & 0xFFFF), int(found >> 16), total};
}

// u16: an output keeps a fine histogram of the keys in a span of kFine keys that holds its
// median, with the counts below the span and in it; moving a row changes the fine histogram
// only for keys in the span. When the median leaves the span, the warp moves the span, rebuilds
// its fine histogram from the whole window, and counts it, until the span holds the median.
// The span moves half its length where the median left it the other way last (or never), a
// whole length where it left it the same way: a median that hovers about a value then sits
// mid-span, far from either end, and one that drifts (a gradient) crosses whole spans. Spans
// that moved a whole length only, as aligned coarse bins, were rebuilt at every crossing of a
// hovering median (noise of 2048 values, k = 65: 1.44 Gpix/s against 3.5 on the H200), and
// half a length only, twice as often on drifting ones (the shared f32 image's ranks: 1.14
// against 1.6). A band's first window finds its median's span from a histogram of the coarse
// bins (key >> kFineBits; in the fine histogram's words):
// updating it for every key cost two more shared atomics a key, on a few words shared by the
// output's four lanes (ranks of 1712 values fill 4 coarse bins of 512).
// A rebuild reads the whole window, so the whole warp does it, each output's in turn (one
// output's four lanes alone would hold the warp up eight times as long; measured in
// docs/notebook/large-windows-h100-2026-11-23.md).
// Keys that are dense ranks (median_ranks.cuh) come with `ranked`: {distinct values, the
// constant border's rank, nonzero where the plane takes the tile ranks instead}.
template <bool kSquare, int kFineBits>
__global__ void __launch_bounds__(kThreads) median_histogram_u16(const __grid_constant__ PlanesArgs a,
                                                                 const __grid_constant__ ColumnsWindow w,
                                                                 const std::uint32_t* ranked, int band) {
    if (ranked != nullptr && ranked[2] != 0) return;
    extern __shared__ unsigned shared[];
    constexpr int kFine = 1 << kFineBits;
    using Coarse = typename U16Bins<kFineBits>::Coarse;
    using Fine = typename U16Bins<kFineBits>::Fine;
    const int outside = static_cast<int>(ranked != nullptr ? ranked[1] : a.outside_key);
    const Start<std::uint16_t> s = start<std::uint16_t>(a, w, shared, Fine::kWords, outside, band);
    // Every lane stays for the warp's rebuilds: outputs past the image's edge run on the
    // border's columns and store nothing.
    Out<std::uint16_t> out(a, s.x, s.y0, s.x < a.width && s.lane == 0);
    const Fine fine{shared + s.o};
    const unsigned fine_at = static_cast<unsigned>(__cvta_generic_to_shared(fine.words));
    const int warp_lane = threadIdx.x % 32, warp_output = (threadIdx.x - warp_lane) / kLanes;
    // The median's span [lo, lo + kFine), the counts below it and in it, its fine bin and the
    // fine count below; the way the span last moved (+1 up, -1 down, 0 not yet).
    int lo = 0, cbelow = 0, ccount = 0, fm = 0, fbelow = 0, moved = 0;
    auto off_span = [&] { return w.rank < cbelow || w.rank >= cbelow + ccount; };
    // find_rank() over output `leader`'s fine histogram, of its span; that output's lanes take
    // the counts and set `need` to whether the median lies outside the span. A span that moved
    // down comes with cbelow counting below its end: find_rank() counts from the top.
    auto find = [&](int leader, bool& need) {
        const Found f = find_rank(Fine{shared + warp_output + leader / kLanes}, w.rank - __shfl_sync(~0u, cbelow, leader));
        if (warp_lane / kLanes != leader / kLanes) return;
        if (w.rank < cbelow) cbelow -= f.total;
        ccount = f.total;
        fm = f.bin;
        fbelow = f.below;
        need = off_span();
    };
    // Rebuilds the fine histograms of the warp's outputs that `need` one, from the windows of
    // row y, until each span holds its median; with `move`, each span first moves half its
    // length towards the median (else it holds it: a band's first windows).
    auto rebuild = [&](bool need, int y, bool move) {
        for (unsigned todo; (todo = __ballot_sync(~0u, need && s.lane == 0)) != 0; move = true) {
            for (; todo != 0; todo &= todo - 1) {
                const int leader = __ffs(todo) - 1;
                const int o = warp_output + leader / kLanes;
                const Fine h{shared + o};
                if (move) {
                    // The count in the span's lower half. cbelow then counts below the new
                    // span's start (moving up) or its end (moving down).
                    int half = 0;
                    for (int i = warp_lane; i < Fine::kWords / 2; i += 32) {
                        const unsigned word = h.words[i * kStride];
                        half += int(word & 0xFFFF) + int(word >> 16);
                    }
                    for (int d = 16; d > 0; d >>= 1) half += __shfl_xor_sync(~0u, half, d);
                    if (warp_lane / kLanes == leader / kLanes) {
                        const int way = w.rank >= cbelow + ccount ? 1 : -1;
                        const bool whole = way == moved;
                        lo += way * (whole ? kFine : kFine / 2);
                        cbelow += !whole ? half : way > 0 ? ccount : 0;
                        moved = way;
                    }
                }
                const int base = __shfl_sync(~0u, lo, leader);
                __syncwarp();  // every lane has read the old counts
                for (int i = warp_lane; i < Fine::kWords; i += 32) h.words[i * kStride] = 0;
                __syncwarp();
                auto add = [&](int k) {
                    if (unsigned(k - base) < unsigned(kFine)) h.add(k - base);
                };
                if constexpr (kSquare) {
                    // A column a lane, and the k % 32 columns left over split into parts of rows
                    // over all the lanes: with whole columns, k = 65 gave one lane 3 to read and
                    // the others 2 (195 keys against 133 now). Faster on noise, random walks
                    // and the f32 ranks of the shared image
                    // (docs/notebook/data-dependence-h100-2026-11-24.md).
                    const int k = 2 * w.radius_x + 1, hh = w.half_height[0], whole = k / 32 * 32, left = k - whole;
                    for (int i = warp_lane; i < whole; i += 32) each_in_column(s, o + i, hh, y, add);
                    const int parts = left > 0 ? 32 / left : 0, part = left > 0 ? warp_lane / left : 0;
                    if (part < parts) {
                        const int rows = (k + parts - 1) / parts, top = y - hh + part * rows;
                        each_in_rows(s, o + whole + warp_lane % left, top, min(top + rows, y + hh + 1) - 1, add);
                    }
                } else {
                    each_value(s, w, o, warp_lane, 32, y, add);
                }
                __syncwarp();
                find(leader, need);
            }
        }
    };
    // The first window: a histogram of the coarse bins (in the fine histogram's words) finds
    // the median's coarse bin.
    const Coarse coarse{shared + s.o};
    static_assert(Coarse::kWords <= Fine::kWords, "the first window's coarse histogram fits a fine one");
    auto add_coarse = [&](int k) { coarse.add(k >> kFineBits); };
    if (shares_columns(kSquare, w))
        first_windows(s, w, shared, Coarse::kWords, s.y0, add_coarse);
    else
        each_value(s, w, s.o, s.lane, kLanes, s.y0, add_coarse);
    __syncwarp();
    int cm = 0;
    settle(coarse, w.rank, cm, cbelow);
    lo = cm << kFineBits;
    __syncwarp();  // every lane has read the coarse counts before they are cleared
    bool need = true;
    if (shares_columns(kSquare, w)) {
        // Squares: the fine histograms of the coarse bin of the warp's first output's median,
        // by first_windows(), serve every output whose median lies there too.
        for (int i = s.lane; i < Coarse::kWords; i += kLanes) coarse.words[i * kStride] = 0;
        __syncwarp();
        const int hi = __shfl_sync(~0u, cm, 0);
        first_windows(s, w, shared, Fine::kWords, s.y0, [&](int k) {
            if ((k >> kFineBits) == hi) fine.add(k & (kFine - 1));
        });
        __syncwarp();
        need = cm != hi;
        for (unsigned todo = __ballot_sync(~0u, !need && s.lane == 0); todo != 0; todo &= todo - 1)
            find(__ffs(todo) - 1, need);  // leaves need false: the median lies in cm
    }
    rebuild(need, s.y0, false);
    out.put(lo + fm);
    for (int y = s.y0 + 1; y < s.y1; ++y) {
        __syncwarp();
        // Counts of the keys below the span (`low`), below the median's fine bin, below the
        // span's end, by sign bits; every key updates the fine histogram, by 0 where it lies
        // outside the span. An `if` around the updates compiled to a branch that
        // nearly every warp took both ways; a predicated update, to the same branch.
        const int low = lo, low_fm = low + fm, high = low + kFine;
        // Adds v to the fine histogram's word of bin b & (kFine - 1), addressed in bytes from a
        // shared-window base: one multiply-add (nvcc made it three from the word index).
        auto fine_add = [&](int b, unsigned v) {
            asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(fine_at + (b & (kFine - 2)) * (kStride * 2)), "r"(v)
                         : "memory");
        };
        int dlow = 0, dfm = 0, dhigh = 0;
        slide<kSquare>(s, w, y, [&](int gone, int come) {
            dlow += ((gone - low) >> 31) - ((come - low) >> 31);
            dfm += ((gone - low_fm) >> 31) - ((come - low_fm) >> 31);
            dhigh += ((gone - high) >> 31) - ((come - high) >> 31);
            const int g = gone - low, c = come - low;
            fine_add(g, unsigned(g) < kFine ? 0u - Fine::one(g) : 0u);  // never below 0: no borrow
            fine_add(c, unsigned(c) < kFine ? Fine::one(c) : 0u);
        });
        // Two sums to a word: each within +-kMaxColumns.
        const int both = lanes_sum<kLanes>(dfm - dlow + dlow * 65536);
        const int fsum = int(unsigned(both) << 16) >> 16;
        fbelow += fsum;
        cbelow += (both - fsum) / 65536;
        ccount += lanes_sum<kLanes>(dhigh - dlow);
        __syncwarp();
        const bool need = off_span();
        rebuild(need, y, true);
        const int t = w.rank - cbelow;  // the median's rank among the fine keys
        settle_lanes(fine, t, fm, fbelow, s.lane, !need && (fbelow > t || fbelow + fine[fm] <= t));
        out.put(lo + fm);
    }
}

// Rows a band: each band starts by building its first windows, and more, shorter bands spread
// better over the SMs. Squares build them from the columns their outputs share
// (first_windows(): about 2k keys a lane) and take 96 rows at every k, which measured faster
// than longer bands (docs/notebook/exact-large-h100-2026-11-24c.md). Other windows build each
// output's whole window (k^2 / 4 keys a lane, as many as
// k / 2 rows' slides): multiples of 32 rows, at least k (a last band of one row would cost a
// whole first window).
int band_rows(const ColumnsWindow& w) {
    const int k = 2 * w.radius_x + 1;
    return shares_columns(columns_square(w), w) ? 96 : (std::max(96, k) + 31) / 32 * 32;
}

template <class Kernel, class... Extra>
cudaError_t launch(Kernel kernel, int words, const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream,
                   Extra... extra) {
    const int band = band_rows(w);
    const std::size_t bytes = (std::size_t(words) * kStride + kOutputs + 2 * w.radius_x) * sizeof(unsigned);
    const cudaError_t e = opt_in_shared(kernel, bytes);
    if (e != cudaSuccess) return e;
    const dim3 grid((a.width + kOutputs - 1) / kOutputs, (a.height + band - 1) / band, a.planes);
    kernel<<<grid, kThreads, bytes, stream>>>(a, w, extra..., band);
    return cudaGetLastError();
}

template <int kFineBits>
cudaError_t launch_u16(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream, const std::uint32_t* ranked) {
    constexpr int words = U16Bins<kFineBits>::Fine::kWords;
    return columns_square(w) ? launch(median_histogram_u16<true, kFineBits>, words, a, w, stream, ranked)
                     : launch(median_histogram_u16<false, kFineBits>, words, a, w, stream, ranked);
}

}  // namespace

cudaError_t launch_median_histogram_u8(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream) {
    return columns_square(w) ? launch(median_histogram_u8<true>, Bins32::kWords, a, w, stream)
                     : launch(median_histogram_u8<false>, Bins32::kWords, a, w, stream);
}

// Windows 48 and wider take fine histograms of 512 bins: the median leaves a fine histogram
// half as often as one of 256 bins (f32 ranks of the shared image, k = 65: on 4.2% of rows
// against 8.1%). At k = 31 the 256-bin histograms keep more warps resident and run faster
// (docs/notebook/exact-large-h100-2026-11-24c.md).
cudaError_t launch_median_histogram_u16(const PlanesArgs& a, const ColumnsWindow& w, cudaStream_t stream,
                                        const std::uint32_t* ranked) {
    return 2 * w.radius_x + 1 >= 48 ? launch_u16<9>(a, w, stream, ranked) : launch_u16<8>(a, w, stream, ranked);
}

}  // namespace fastmedian::kernels
