#include "median_tile_ranks.cuh"

#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "output_lanes.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kOutputs = 32;  // output columns a block
constexpr int kLanes = 4;     // threads an output: they split the window's columns
constexpr int kThreads = kOutputs * kLanes;
// Bitmap word i of output o lies at bits[i * kStride + o]: as the sliding histograms lay out
// their bins (median_histogram.cu), the lanes of a warp's outputs fall in different banks.
constexpr int kStride = kOutputs + 32 / kLanes;
constexpr int kMinBand = 16;  // fewer rows a tile would rank more slots than it filters
// Slots a tile: the sort's 512 threads take 16, 24 or 32 items each, or 1024 threads 32.
constexpr int kSmallSlots = 8192, kMiddleSlots = 12288, kLargeSlots = 16384, kHugeSlots = 32768;
// Tiles are ranked and filtered a chunk of tile rows at a time, in scratch of about this size.
constexpr std::size_t kChunkBytes = std::size_t{128} << 20;

template <class T>
using KeyOf = std::conditional_t<std::is_same_v<T, float>, std::uint32_t, std::uint16_t>;

// A tile: `cols` x `rows` slots (slot (c, r) at r * cols + c: image column bx - radius_x + c,
// row by - ry + r) for 32 outputs x `band` rows; `slots` ranks (the sort's items, at least
// cols * rows; the rest pad) and `words` bitmap words an output.
struct Tile {
    int cols, rows, band, ry, slots, words;
};

int max_half_height(const ColumnsWindow& w) {
    int ry = 0;
    for (int i = 0; i <= 2 * w.radius_x; ++i) ry = std::max(ry, w.half_height[i]);
    return ry;
}

// The band a tile of `slots` allows.
int band_for(int slots, const ColumnsWindow& w) {
    return slots / (kOutputs + 2 * w.radius_x) - 2 * max_half_height(w);
}

// The fewest slots whose band is at least half the window's height (and kMinBand), else the
// most that serve to 16384, else 32768: fewer slots keep more blocks an SM (a block's bitmaps
// take 5 bytes a slot), more rank fewer slots an output; 32768 slots leave one block an SM and
// a sort of 1024 threads that spills, so they take only windows that 16384 cannot. On the H200
// (docs/notebook/tile-ranks-h200-2026-11-30.md, noise, Gpix/s): k = 31 on 8192 / 12288 / 16384
// slots 7.4 / 6.0 / 4.3 (u16), 6.0 / 4.8 / 3.7 (f32); k = 65 2.3 / 3.1 / 2.5 (u16), 1.8 / 2.5 /
// 2.2 (f32); k = 97 on 16384 / 32768 1.04 / 0.97 (u16), 0.86 / 0.58 (f32).
int slots_for(const ColumnsWindow& w) {
    const int most = most_tile_slots();
    for (int slots : {kSmallSlots, kMiddleSlots})
        if (slots < most && band_for(slots, w) >= std::max(kMinBand, max_half_height(w))) return slots;
    return most > kLargeSlots && band_for(kLargeSlots, w) >= kMinBand ? kLargeSlots : most;
}

// A plane's tiles: bands as long as the slots allow, no longer than the plane; the fewest
// slots that hold a tile of a short plane.
Tile tile_of(const ColumnsWindow& w, int height) {
    Tile t{};
    t.cols = kOutputs + 2 * w.radius_x;
    t.ry = max_half_height(w);
    t.slots = slots_for(w);
    t.band = std::min(band_for(t.slots, w), height);
    t.rows = t.band + 2 * t.ry;
    for (int slots : {kLargeSlots, kMiddleSlots, kSmallSlots})
        if (slots < t.slots && t.cols * t.rows <= slots) t.slots = slots;
    t.words = t.slots / 32;
    return t;
}

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// A plane's tiles, ranked and filtered `rows` tile rows at a time, and the scratch of a chunk:
// its tiles' ranks by slot, then (from `keys_at` bytes) their keys by rank.
struct Chunks {
    int tiles_x, tiles_y, rows;
    std::size_t keys_at, bytes;
};

Chunks chunks_of(const Tile& t, std::size_t key_bytes, int width, int height) {
    Chunks c{};
    c.tiles_x = (width + kOutputs - 1) / kOutputs;
    c.tiles_y = (height + t.band - 1) / t.band;
    const std::size_t tile_bytes = t.slots * (sizeof(std::uint16_t) + key_bytes);
    c.rows = static_cast<int>(std::clamp<std::size_t>(kChunkBytes / (std::size_t(c.tiles_x) * tile_bytes), 1,
                                                      static_cast<std::size_t>(c.tiles_y)));
    const std::size_t slots = std::size_t(c.rows) * c.tiles_x * t.slots;
    c.keys_at = aligned(slots * sizeof(std::uint16_t));
    c.bytes = c.keys_at + slots * key_bytes;
    return c;
}

template <class T, int kThreads, int kItems>
using TileSort = cub::BlockRadixSort<KeyOf<T>, kThreads, kItems, std::uint16_t>;

// One block a tile of the chunk: its slots' keys (the border's where a slot lies outside the
// image), sorted with their slot numbers; the tile's keys by rank and ranks by slot into the
// scratch. Pad items sort with the largest key, after any equal real key (the sort is stable
// and they come last), so the real slots take ranks among the first cols * rows.
template <class T, int kSortThreads, int kItems>
__global__ void __launch_bounds__(kSortThreads) rank_tiles(const __grid_constant__ PlanesArgs a, Tile t, int radius_x,
                                                           int tile_row0, std::uint16_t* ranks, KeyOf<T>* keys,
                                                           const std::uint32_t* only_if) {
    if (only_if != nullptr && *only_if == 0) return;
    using Key = KeyOf<T>;
    using Sort = TileSort<T, kSortThreads, kItems>;
    extern __shared__ __align__(16) unsigned char shared[];
    auto& storage = *reinterpret_cast<typename Sort::TempStorage*>(shared);
    const std::int64_t tile = std::int64_t{blockIdx.y} * gridDim.x + blockIdx.x;
    const int bx = static_cast<int>(blockIdx.x) * kOutputs - radius_x;
    const int by = (tile_row0 + static_cast<int>(blockIdx.y)) * t.band - t.ry;
    const int n = t.cols * t.rows;
    Key key[kItems];
    std::uint16_t slot[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
        const int j = static_cast<int>(threadIdx.x) * kItems + i;
        slot[i] = static_cast<std::uint16_t>(j);
        key[i] = static_cast<Key>(~Key{0});
        if (j < n) {
            const std::int64_t sx = border_index(bx + j % t.cols, a.width, a.border);
            const std::int64_t sy = border_index(by + j / t.cols, a.height, a.border);
            const auto* row = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + sy * a.src_pitch);
            key[i] = static_cast<Key>(sx < 0 || sy < 0 ? a.outside_key : OrderKey<T>::to_key(row[sx]));
        }
    }
    Sort(storage).SortBlockedToStriped(key, slot, 0, static_cast<int>(sizeof(Key)) * 8);
    Key* tile_keys = keys + tile * t.slots;
#pragma unroll
    for (int i = 0; i < kItems; ++i) tile_keys[i * kSortThreads + threadIdx.x] = key[i];
    // The ranks by slot: scattered in shared memory (the sort's, free now), stored in whole
    // lines (scattered two-byte stores to global memory move a 32-byte sector each).
    __syncthreads();
    auto* by_slot = reinterpret_cast<std::uint16_t*>(shared);
    static_assert(sizeof(typename Sort::TempStorage) >= sizeof(std::uint16_t) * kItems * kSortThreads,
                  "the sort's storage holds the ranks");
#pragma unroll
    for (int i = 0; i < kItems; ++i) by_slot[slot[i]] = static_cast<std::uint16_t>(i * kSortThreads + threadIdx.x);
    __syncthreads();
    auto* tile_ranks = reinterpret_cast<uint4*>(ranks + tile * t.slots);
    const auto* from = reinterpret_cast<const uint4*>(by_slot);
    for (int i = threadIdx.x; i < t.slots / 8; i += kSortThreads) tile_ranks[i] = from[i];
}

// The position of set bit n (from 0, lowest first) of `word`, which has more than n.
__device__ __forceinline__ int nth_set_bit(unsigned word, int n) {
    int at = 0;
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
        const int c = __popc(word & ((1u << s) - 1));
        if (n >= c) {
            n -= c;
            word >>= s;
            at += s;
        }
    }
    return at;
}

// An output's bitmap: word i at words[i * kStride].
struct Bitmap {
    unsigned* words;
    int count;  // words
    __device__ void set(int r) const { atomicOr(words + (r >> 5) * kStride, 1u << (r & 31)); }
    __device__ void flip(int r) const { atomicXor(words + (r >> 5) * kStride, 1u << (r & 31)); }
};

// The window's set bit of rank t (the median's rank), given `below` set bits under bit m: m
// moves to it. The four lanes of an output read four words a step, nearest first; the whole
// warp takes every step, so that its shuffles and votes take all 32 lanes.
__device__ __forceinline__ void settle(const Bitmap& h, int t, int& m, int below, int lane) {
    const int group = static_cast<int>(threadIdx.x) % 32 & ~(kLanes - 1);
    bool down = below > t;
    const bool went_down = down;
    int base = m >> 5;
    unsigned mask = (1u << (m & 31)) - 1;  // lane 0's word: the bits under m
    while (__any_sync(~0u, down)) {        // words base - lane
        const int i = base - lane;
        unsigned word = down && i >= 0 ? h.words[i * kStride] : 0u;
        if (lane == 0) word &= mask;
        const int upto = lanes_prefix<kLanes>(__popc(word), lane);  // set bits from word i to m
        const unsigned hit = __ballot_sync(~0u, down && below - upto <= t) >> group & 0xFu;
        const int j = hit != 0 ? __ffs(hit) - 1 : kLanes - 1;
        const unsigned wj = __shfl_sync(~0u, word, j, kLanes);
        const int uj = __shfl_sync(~0u, upto, j, kLanes);
        if (down) {
            if (hit != 0) {
                m = (base - j) * 32 + nth_set_bit(wj, t - (below - uj));
                down = false;
            } else {
                below -= uj;
                base -= kLanes;
                mask = ~0u;
            }
        }
    }
    bool up = !went_down;  // the median lies at m or above
    base = m >> 5;
    mask = ~((1u << (m & 31)) - 1);  // lane 0's word: bit m and above
    while (__any_sync(~0u, up)) {    // words base + lane
        const int i = base + lane;
        unsigned word = up && i < h.count ? h.words[i * kStride] : 0u;
        if (lane == 0) word &= mask;
        const int count = __popc(word);
        const int upto = lanes_prefix<kLanes>(count, lane);  // set bits from m to the end of word i
        const unsigned hit = __ballot_sync(~0u, up && below + upto > t) >> group & 0xFu;
        const int j = hit != 0 ? __ffs(hit) - 1 : kLanes - 1;
        const unsigned wj = __shfl_sync(~0u, word, j, kLanes);
        const int before = __shfl_sync(~0u, upto - count, j, kLanes);
        const int uj = __shfl_sync(~0u, upto, j, kLanes);
        if (up) {
            if (hit != 0) {
                m = (base + j) * 32 + nth_set_bit(wj, t - (below + before));
                up = false;
            } else {
                below += uj;
                base += kLanes;
                mask = ~0u;
            }
        }
    }
}

// Adds the slots of rows r0 ... r0 + 2 hh of the tile's column c to the bitmap.
__device__ __forceinline__ void add_column(const Bitmap& h, const std::uint16_t* ranks, const Tile& t, int c, int r0,
                                           int hh) {
    const std::uint16_t* p = ranks + r0 * t.cols + c;
    for (int r = 0; r <= 2 * hh; ++r, p += t.cols) h.set(*p);
}

// The band's first windows. Squares at least 9 columns wide: the columns that a warp's eight
// outputs share are split over its 32 lanes, each setting bits in its own output's bitmap; the
// eight bitmaps are joined (ranks are distinct, so a bit comes from one column) and each output
// takes the join and sets its own seven columns (as the sliding histograms' first_windows()
// sums theirs). Other windows: each output's four lanes set its columns.
template <bool kSquare>
__device__ void first_windows(const Bitmap& h, unsigned* bits, const ColumnsWindow& w, const std::uint16_t* ranks,
                              const Tile& t, int o, int lane) {
    const int rx = w.radius_x;
    if (kSquare && rx >= 4) {
        constexpr int kEight = 32 / kLanes, kOwn = kEight - 1;
        static_assert(kEight == 8, "a word of a warp's outputs is two uint4");
        const int warp_lane = static_cast<int>(threadIdx.x) % 32, first = o & ~kOwn, d = o - first;
        const int hh = w.half_height[0];
        for (int c = first + kOwn + warp_lane; c <= first + 2 * rx; c += 32) add_column(h, ranks, t, c, t.ry - hh, hh);
        __syncwarp();
        for (int i = warp_lane; i < h.count; i += 32) {  // 16-byte aligned: kStride and `first` are multiples of 4
            uint4* p = reinterpret_cast<uint4*>(bits + i * kStride + first);
            const uint4 l = p[0], u = p[1];
            const unsigned all = l.x | l.y | l.z | l.w | u.x | u.y | u.z | u.w;
            p[0] = p[1] = make_uint4(all, all, all, all);
        }
        __syncwarp();
        for (int j = lane; j < kOwn; j += kLanes)
            add_column(h, ranks, t, j < kOwn - d ? o + j : first + 2 * rx + 1 + j - (kOwn - d), t.ry - hh, hh);
    } else {
        for (int i = lane; i <= 2 * rx; i += kLanes)
            add_column(h, ranks, t, o + i, t.ry - w.half_height[i], w.half_height[i]);
    }
}

// One block a tile of the chunk: 32 outputs, four lanes each, down the band. Every lane stays
// to the end, so that the warp's votes take all 32 lanes: outputs past the image's right edge
// run on the border's slots and store nothing.
template <class T, bool kSquare>
__global__ void __launch_bounds__(kThreads) median_tiles(const __grid_constant__ PlanesArgs a,
                                                         const __grid_constant__ ColumnsWindow w, Tile t, int tile_row0,
                                                         const std::uint16_t* ranks, const KeyOf<T>* keys,
                                                         const std::uint32_t* only_if) {
    if (only_if != nullptr && *only_if == 0) return;
    extern __shared__ __align__(16) unsigned bits[];
    const std::int64_t tile = std::int64_t{blockIdx.y} * gridDim.x + blockIdx.x;
    const std::uint16_t* tile_ranks = ranks + tile * t.slots;
    const KeyOf<T>* tile_keys = keys + tile * t.slots;
    const int o = static_cast<int>(threadIdx.x) / kLanes, lane = static_cast<int>(threadIdx.x) % kLanes;
    const int x = static_cast<int>(blockIdx.x) * kOutputs + o;
    const int y0 = (tile_row0 + static_cast<int>(blockIdx.y)) * t.band, y1 = min(y0 + t.band, a.height);
    for (int i = threadIdx.x; i < t.words * kStride; i += kThreads) bits[i] = 0;
    __syncthreads();
    const Bitmap h{bits + o, t.words};
    first_windows<kSquare>(h, bits, w, tile_ranks, t, o, lane);
    __syncwarp();
    int m = 0;
    settle(h, w.rank, m, 0, lane);
    const bool live = lane == 0 && x < a.width;
    char* out = static_cast<char*>(a.dst) + y0 * a.dst_pitch + x * std::int64_t{sizeof(T)};
    if (live) *reinterpret_cast<T*>(out) = OrderKey<T>::from_key(tile_keys[m]);
    const int rx = w.radius_x;
    for (int y = y0 + 1; y < y1; ++y) {
        const int j = y - y0;  // the band's row: its window's rows start at slot row j + ry - hh
        __syncwarp();          // every lane has settled before the bitmap changes
        int delta = 0;         // set bits under m: one fewer for a slot leaving, one more for one entering
        auto move = [&](int gone, int come) {
            h.flip(gone);
            h.flip(come);
            delta += ((gone - m) >> 31) - ((come - m) >> 31);
        };
        if (kSquare) {
            const int hh = w.half_height[0];
            const std::uint16_t* gone = tile_ranks + (j - 1 + t.ry - hh) * t.cols + o + lane;
            const std::uint16_t* come = gone + (2 * hh + 1) * t.cols;
            // One trip count for the four lanes and a predicated last column (as
            // median_histogram.cu's slide()).
            const int full = (2 * rx + 1) / kLanes;
#pragma unroll 8
            for (int i = 0; i < full; ++i, gone += kLanes, come += kLanes) move(*gone, *come);
            if (lane + kLanes * full <= 2 * rx) move(*gone, *come);
        } else {
#pragma unroll 4
            for (int i = lane; i - lane <= 2 * rx; i += kLanes) {
                if (i > 2 * rx) continue;
                const int hh = w.half_height[i];
                const std::uint16_t* gone = tile_ranks + (j - 1 + t.ry - hh) * t.cols + o + i;
                move(*gone, gone[(2 * hh + 1) * t.cols]);
            }
        }
        const int below = w.rank + lanes_sum<kLanes>(delta);
        __syncwarp();
        settle(h, w.rank, m, below, lane);
        out += a.dst_pitch;
        if (live) *reinterpret_cast<T*>(out) = OrderKey<T>::from_key(tile_keys[m]);
    }
}

template <class T, int kThreads, int kItems>
cudaError_t rank_chunk(const PlanesArgs& a, const Tile& t, int radius_x, int tile_row0, dim3 grid,
                       std::uint16_t* ranks, KeyOf<T>* keys, const std::uint32_t* only_if, cudaStream_t stream) {
    const std::size_t bytes = sizeof(typename TileSort<T, kThreads, kItems>::TempStorage);
    const cudaError_t e = opt_in_shared(rank_tiles<T, kThreads, kItems>, bytes);
    if (e != cudaSuccess) return e;
    rank_tiles<T, kThreads, kItems><<<grid, kThreads, bytes, stream>>>(a, t, radius_x, tile_row0, ranks, keys, only_if);
    return cudaGetLastError();
}

template <class T>
cudaError_t rank_tiles_of(const PlanesArgs& a, const Tile& t, int radius_x, int tile_row0, dim3 grid,
                          std::uint16_t* ranks, KeyOf<T>* keys, const std::uint32_t* only_if, cudaStream_t stream) {
    switch (t.slots) {
        case kSmallSlots: return rank_chunk<T, 512, 16>(a, t, radius_x, tile_row0, grid, ranks, keys, only_if, stream);
        case kMiddleSlots: return rank_chunk<T, 512, 24>(a, t, radius_x, tile_row0, grid, ranks, keys, only_if, stream);
        case kLargeSlots: return rank_chunk<T, 512, 32>(a, t, radius_x, tile_row0, grid, ranks, keys, only_if, stream);
        default: return rank_chunk<T, 1024, 32>(a, t, radius_x, tile_row0, grid, ranks, keys, only_if, stream);
    }
}

template <class T>
cudaError_t launch(const PlanesArgs& a, const ColumnsWindow& w, void* scratch, const std::uint32_t* only_if,
                   cudaStream_t stream) {
    using Key = KeyOf<T>;
    const Tile t = tile_of(w, a.height);
    const Chunks c = chunks_of(t, sizeof(Key), a.width, a.height);
    auto* ranks = static_cast<std::uint16_t*>(scratch);
    auto* keys = reinterpret_cast<Key*>(static_cast<char*>(scratch) + c.keys_at);
    const auto median = columns_square(w) ? median_tiles<T, true> : median_tiles<T, false>;
    const std::size_t bitmap_bytes = std::size_t(t.words) * kStride * sizeof(unsigned);
    cudaError_t e = opt_in_shared(median, bitmap_bytes);
    if (e != cudaSuccess) return e;
    for (int z = 0; z < a.planes; ++z) {
        PlanesArgs plane = a;
        plane.src = static_cast<const char*>(a.src) + z * a.src_plane_stride;
        plane.dst = static_cast<char*>(a.dst) + z * a.dst_plane_stride;
        plane.planes = 1;
        for (int row = 0; row < c.tiles_y; row += c.rows) {
            const dim3 grid(c.tiles_x, std::min(c.rows, c.tiles_y - row));
            e = rank_tiles_of<T>(plane, t, w.radius_x, row, grid, ranks, keys, only_if, stream);
            if (e != cudaSuccess) return e;
            median<<<grid, kThreads, bitmap_bytes, stream>>>(plane, w, t, row, ranks, keys, only_if);
            e = cudaGetLastError();
            if (e != cudaSuccess) return e;
        }
    }
    return cudaSuccess;
}

}  // namespace

int most_tile_slots() {
    // A block's bitmaps take 5 bytes a slot (kStride words for 32 outputs' one); the sort, 4.
    for (int slots : {kHugeSlots, kLargeSlots, kMiddleSlots})
        if (std::size_t(slots) * kStride / 32 * sizeof(unsigned) <= active_shared_per_block()) return slots;
    return kSmallSlots;
}

bool tile_ranks_serve(const ColumnsWindow& w) { return band_for(most_tile_slots(), w) >= kMinBand; }

std::size_t tile_ranks_scratch_bytes(int key_bytes, const ColumnsWindow& w, int width, int height) {
    return chunks_of(tile_of(w, height), static_cast<std::size_t>(key_bytes), width, height).bytes;
}

std::size_t tile_ranks_row_bytes(int key_bytes, const ColumnsWindow& w, int width) {
    const int tiles_x = (width + kOutputs - 1) / kOutputs;
    const int slots = slots_for(w);
    return std::size_t(tiles_x) * slots * (sizeof(std::uint16_t) + key_bytes) / band_for(slots, w) + 1;
}

cudaError_t launch_median_tile_ranks_u16(const PlanesArgs& a, const ColumnsWindow& w, void* scratch,
                                         cudaStream_t stream, const std::uint32_t* only_if) {
    return launch<std::uint16_t>(a, w, scratch, only_if, stream);
}

cudaError_t launch_median_tile_ranks_f32(const PlanesArgs& a, const ColumnsWindow& w, void* scratch,
                                         cudaStream_t stream, const std::uint32_t* only_if) {
    return launch<float>(a, w, scratch, only_if, stream);
}

}  // namespace fastmedian::kernels
