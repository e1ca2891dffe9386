#include "median_ranks.cuh"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "float_keys.cuh"
#include "gpu_policy.hpp"
#include "median_bisect.cuh"
#include "median_tile_ranks.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::kernels {

namespace {

constexpr std::size_t kAlign = 256;
constexpr int kValueWords = 65536 / 32;  // the u16 bitmap

// How a plane numbers its values: through a bitmap of the 65536 values (u16 planes, and f32
// planes of whole numbers 0..65535 where the tile ranks take the others), or by sorting its
// keys (f32).
enum class Numbering { bitmap, sort };

// The scratch of one plane, carved in this order: info = {distinct values D, rank of the
// constant border's value, nonzero where the plane takes the tile ranks instead}; the values by
// rank (as order keys); the plane's ranks and the median's ranks (rows `pitch` bytes apart);
// then by bitmap: the rank of each value and the bitmap of the values present; by sorting: the
// keys, a second buffer for sorting them, and CUB's storage.
struct Layout {
    std::uint32_t* info;
    std::uint32_t* values;
    std::uint16_t* ranks;
    std::uint16_t* medians;
    std::int64_t pitch;
    std::uint16_t* rank_of;
    std::uint32_t* present;
    std::uint32_t* keys;
    std::uint32_t* sorted;
    void* temp;
    std::size_t temp_bytes;
    std::size_t bytes;  // in all
};

// CUB's storage for sorting n keys and keeping the distinct ones.
std::size_t cub_bytes(int n) {
    std::size_t sort = 0, unique = 0;
    cub::DoubleBuffer<std::uint32_t> keys(nullptr, nullptr);
    cub::DeviceRadixSort::SortKeys(nullptr, sort, keys, n);
    cub::DeviceSelect::Unique(nullptr, unique, static_cast<const std::uint32_t*>(nullptr),
                              static_cast<std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), n);
    return std::max(sort, unique);
}

// The keys an f32 plane sorts: its pixels, and the constant border's key after them.
std::int64_t f32_keys(int width, int height) { return std::int64_t{width} * height + 1; }

Layout carve(Numbering numbering, char* base, int width, int height) {
    const bool sort = numbering == Numbering::sort;
    Layout l{};
    std::size_t at = 0;
    auto take = [&](std::size_t bytes) {
        char* p = base == nullptr ? nullptr : base + at;
        at += (bytes + kAlign - 1) / kAlign * kAlign;
        return p;
    };
    const auto n = static_cast<std::size_t>(f32_keys(width, height));
    l.pitch = (std::int64_t{width} * 2 + 127) / 128 * 128;
    l.info = reinterpret_cast<std::uint32_t*>(take(3 * sizeof(std::uint32_t)));
    // Every distinct key of a sorted plane, however many.
    l.values = reinterpret_cast<std::uint32_t*>(take((sort ? n : 65536) * sizeof(std::uint32_t)));
    l.ranks = reinterpret_cast<std::uint16_t*>(take(static_cast<std::size_t>(l.pitch) * height));
    l.medians = reinterpret_cast<std::uint16_t*>(take(static_cast<std::size_t>(l.pitch) * height));
    if (sort) {
        l.keys = reinterpret_cast<std::uint32_t*>(take(n * sizeof(std::uint32_t)));
        l.sorted = reinterpret_cast<std::uint32_t*>(take(n * sizeof(std::uint32_t)));
        l.temp_bytes = cub_bytes(static_cast<int>(n));
        l.temp = take(l.temp_bytes);
    } else {
        l.rank_of = reinterpret_cast<std::uint16_t*>(take(65536 * sizeof(std::uint16_t)));
        l.present = reinterpret_cast<std::uint32_t*>(take(kValueWords * sizeof(std::uint32_t)));
    }
    l.bytes = at;
    return l;
}

// Marks the values of a plane, and a constant border's, in a bitmap of the 65536 values. f32: of
// its whole numbers, with info[2] set where a value is not one (the tile ranks take the plane).
template <class T>
__global__ void mark(const __grid_constant__ PlanesArgs a, std::uint32_t* present, std::uint32_t* info) {
    __shared__ std::uint32_t bits[kValueWords];
    for (int i = threadIdx.x; i < kValueWords; i += blockDim.x) bits[i] = 0;
    __syncthreads();
    std::uint32_t inexact = 0, top = 0;  // f32: WholeFloatKey's record of the values seen
    const auto value_of = [&](T v) -> unsigned {
        if constexpr (std::is_same_v<T, float>) return WholeFloatKey::key(v, inexact, top) & 0xFFFFu;
        else return v;
    };
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const auto* row = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + y * a.src_pitch);
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < a.width; x += gridDim.x * blockDim.x) {
            const unsigned v = value_of(row[x]), bit = 1u << (v & 31);
            if ((bits[v >> 5] & bit) == 0) atomicOr(&bits[v >> 5], bit);  // most values are marked already
        }
    }
    if (a.border == kConstant && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) {
        const unsigned v = value_of(OrderKey<T>::from_key(a.outside_key));
        atomicOr(&bits[v >> 5], 1u << (v & 31));
    }
    if constexpr (std::is_same_v<T, float>) {
        if (__syncthreads_or(!WholeFloatKey::whole(inexact, top)) && threadIdx.x == 0) atomicOr(&info[2], 1u);
    } else {
        __syncthreads();
    }
    for (int i = threadIdx.x; i < kValueWords; i += blockDim.x)
        if (bits[i] != 0) atomicOr(&present[i], bits[i]);
}

// Numbers the marked values in order: rank_of[value], values[rank] (as T's order keys), info[0]
// = D, and info[2] set where D is more than `most` (the tile ranks take the plane).
template <class T>
__global__ void __launch_bounds__(1024) number(const std::uint32_t* present, std::uint16_t* rank_of,
                                               std::uint32_t* values, std::uint32_t* info, unsigned most) {
    using Scan = cub::BlockScan<unsigned, 1024>;
    __shared__ typename Scan::TempStorage scan;
    std::uint64_t bits = std::uint64_t{present[2 * threadIdx.x + 1]} << 32 | present[2 * threadIdx.x];
    unsigned rank = 0, total = 0;
    Scan(scan).ExclusiveSum(static_cast<unsigned>(__popcll(bits)), rank, total);
    for (; bits != 0; bits &= bits - 1) {
        const unsigned v = 64 * threadIdx.x + __ffsll(static_cast<long long>(bits)) - 1;
        rank_of[v] = static_cast<std::uint16_t>(rank);
        values[rank++] = OrderKey<T>::to_key(static_cast<T>(v));
    }
    if (threadIdx.x == 0) {
        info[0] = total;
        if (total > most) info[2] = 1;
    }
}

// The order keys of an f32 plane, row after row, and the border's key after them.
__global__ void keys_f32(const __grid_constant__ PlanesArgs a, std::uint32_t* keys) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        const auto* row = reinterpret_cast<const float*>(static_cast<const char*>(a.src) + y * a.src_pitch);
        keys[std::int64_t{y} * a.width + x] = OrderKey<float>::to_key(row[x]);
    }
    if (x == 0 && blockIdx.y == 0 && threadIdx.y == 0) keys[std::int64_t{a.height} * a.width] = a.outside_key;
}

// The rank of a key: numbered by bitmap, from the table of its value; f32 numbered by sorting,
// by bisection of the sorted distinct keys.
template <class T>
struct RankOfValue {
    const std::uint16_t* rank_of;
    __device__ unsigned operator()(std::uint32_t key, unsigned) const {
        return rank_of[static_cast<unsigned>(OrderKey<T>::from_key(key)) & 0xFFFFu];
    }
};
struct RankOfSorted {
    const std::uint32_t* values;
    __device__ unsigned operator()(std::uint32_t key, unsigned count) const {
        unsigned lo = 0, hi = count - 1;  // the key is among them
        while (lo < hi) {
            const unsigned mid = (lo + hi) / 2;
            if (values[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
};

// The plane's ranks, and info[1] = a constant border's rank; where there are more than kMaxRanks
// values, their groups (rank_group_shift).
template <class T, class RankOf>
__global__ void to_ranks(const __grid_constant__ PlanesArgs a, Layout l, RankOf rank_of) {
    if (l.info[2] != 0) return;
    const unsigned count = l.info[0];
    const int shift = rank_group_shift(count);
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        const T v = reinterpret_cast<const T*>(static_cast<const char*>(a.src) + y * a.src_pitch)[x];
        reinterpret_cast<std::uint16_t*>(reinterpret_cast<char*>(l.ranks) + y * l.pitch)[x] =
            static_cast<std::uint16_t>(rank_of(OrderKey<T>::to_key(v), count) >> shift);
    }
    if (a.border == kConstant && x == 0 && blockIdx.y == 0 && threadIdx.y == 0)
        l.info[1] = rank_of(a.outside_key, count) >> shift;
}

// The median's values from its ranks, into the caller's plane (groups of ranks: median_refine_f32).
template <class T>
__global__ void from_ranks(const __grid_constant__ PlanesArgs a, Layout l) {
    if (l.info[0] > kMaxRanks || l.info[2] != 0) return;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.height; y += gridDim.y * blockDim.y) {
        const unsigned rank = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const char*>(l.medians) + y * l.pitch)[x];
        reinterpret_cast<T*>(static_cast<char*>(a.dst) + y * a.dst_pitch)[x] = OrderKey<T>::from_key(l.values[rank]);
    }
}

// Numbers an f32 plane's values by sorting its keys, and ranks the plane.
cudaError_t number_by_sorting(const PlanesArgs& plane, const Layout& l, dim3 grid, dim3 block, cudaStream_t stream) {
    keys_f32<<<grid, block, 0, stream>>>(plane, l.keys);
    const int n = static_cast<int>(f32_keys(plane.width, plane.height));
    cub::DoubleBuffer<std::uint32_t> keys(l.keys, l.sorted);
    std::size_t bytes = l.temp_bytes;
    cudaError_t e = cub::DeviceRadixSort::SortKeys(l.temp, bytes, keys, n, 0, 32, stream);
    if (e != cudaSuccess) return e;
    bytes = l.temp_bytes;
    e = cub::DeviceSelect::Unique(l.temp, bytes, keys.Current(), l.values, l.info, n, stream);
    if (e != cudaSuccess) return e;
    to_ranks<float><<<grid, block, 0, stream>>>(plane, l, RankOfSorted{l.values});
    return cudaSuccess;
}

// `tiles`: scratch for the tile ranks, which take the planes of more than most_dense_values and
// f32 planes of other than whole numbers 0..65535 (nullptr: none take the tile ranks, and f32
// planes number their values by sorting).
template <class T>
cudaError_t launch(const PlanesArgs& a, const ColumnsWindow& w, const RunsWindow* fallback, void* scratch,
                   void* tiles, cudaStream_t stream) {
    constexpr bool kF32 = std::is_same_v<T, float>;
    const Numbering numbering = kF32 && tiles == nullptr ? Numbering::sort : Numbering::bitmap;
    const Layout l = carve(numbering, static_cast<char*>(scratch), a.width, a.height);
    const dim3 block(32, 8);
    const dim3 grid((a.width + 31) / 32, std::min((a.height + 7) / 8, 65535));
    PlanesArgs ranks{};
    ranks.src = l.ranks;
    ranks.src_pitch = l.pitch;
    ranks.dst = l.medians;
    ranks.dst_pitch = l.pitch;
    ranks.width = a.width;
    ranks.height = a.height;
    ranks.planes = 1;
    ranks.border = a.border;
    for (int z = 0; z < a.planes; ++z) {
        PlanesArgs plane = a;
        plane.src = static_cast<const char*>(a.src) + z * a.src_plane_stride;
        plane.dst = static_cast<char*>(a.dst) + z * a.dst_plane_stride;
        plane.planes = 1;
        cudaError_t e = cudaMemsetAsync(l.info, 0, 3 * sizeof(std::uint32_t), stream);
        if (e != cudaSuccess) return e;
        if (numbering == Numbering::sort) {
            e = number_by_sorting(plane, l, grid, block, stream);
            if (e != cudaSuccess) return e;
        } else {
            e = cudaMemsetAsync(l.present, 0, kValueWords * sizeof(std::uint32_t), stream);
            if (e != cudaSuccess) return e;
            const dim3 marks(std::min((a.width + 255) / 256, 16), std::min(a.height, 64));
            mark<T><<<marks, 256, 0, stream>>>(plane, l.present, l.info);
            number<T><<<1, 1024, 0, stream>>>(l.present, l.rank_of, l.values, l.info,
                                              tiles != nullptr ? most_dense_values(w) : kMaxRanks);
            if (tiles != nullptr) {
                e = kF32 ? launch_median_tile_ranks_f32(plane, w, tiles, stream, l.info + 2)
                         : launch_median_tile_ranks_u16(plane, w, tiles, stream, l.info + 2);
                if (e != cudaSuccess) return e;
            }
            to_ranks<T><<<grid, block, 0, stream>>>(plane, l, RankOfValue<T>{l.rank_of});
        }
        e = launch_median_histogram_u16(ranks, w, stream, l.info);
        if (e != cudaSuccess) return e;
        from_ranks<T><<<grid, block, 0, stream>>>(plane, l);
        if (numbering == Numbering::sort) {
            e = launch_median_refine_f32(plane, *fallback, l.info, l.medians, l.pitch, l.values, stream);
            if (e != cudaSuccess) return e;
        }
        e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

// The bytes before the tile ranks' scratch in launch_median_ranked_or_tiles's.
std::size_t ranks_before_tiles(int width, int height) {
    return (carve(Numbering::bitmap, nullptr, width, height).bytes + kAlign - 1) / kAlign * kAlign;
}

}  // namespace

unsigned most_dense_values(const ColumnsWindow& w) {
    const int width = 2 * w.radius_x + 1;
    unsigned most = 0;
    for (const DenseRanksStep& step : active_policy().median.dense_ranks)
        if (width >= step.min_width) most = step.most_values;
    return most;
}

std::size_t ranked_scratch_bytes_u16(int width, int height) {
    return carve(Numbering::bitmap, nullptr, width, height).bytes;
}

std::size_t ranked_scratch_bytes_f32(int width, int height) {
    return carve(Numbering::sort, nullptr, width, height).bytes;
}

cudaError_t launch_median_ranked_u16(const PlanesArgs& a, const ColumnsWindow& w, void* scratch,
                                     cudaStream_t stream) {
    return launch<std::uint16_t>(a, w, nullptr, scratch, nullptr, stream);
}

cudaError_t launch_median_ranked_f32(const PlanesArgs& a, const ColumnsWindow& w, const RunsWindow& fallback,
                                     void* scratch, cudaStream_t stream) {
    return launch<float>(a, w, &fallback, scratch, nullptr, stream);
}

std::size_t ranked_or_tiles_scratch_bytes(int key_bytes, const ColumnsWindow& w, int width, int height) {
    return ranks_before_tiles(width, height) + tile_ranks_scratch_bytes(key_bytes, w, width, height);
}

std::size_t ranked_or_tiles_row_bytes(int key_bytes, const ColumnsWindow& w, int width) {
    return ranks_before_tiles(width, 2) - ranks_before_tiles(width, 1) + tile_ranks_row_bytes(key_bytes, w, width);
}

cudaError_t launch_median_ranked_or_tiles_u16(const PlanesArgs& a, const ColumnsWindow& w, void* scratch,
                                              cudaStream_t stream) {
    char* tiles = static_cast<char*>(scratch) + ranks_before_tiles(a.width, a.height);
    return launch<std::uint16_t>(a, w, nullptr, scratch, tiles, stream);
}

cudaError_t launch_median_ranked_or_tiles_f32(const PlanesArgs& a, const ColumnsWindow& w, void* scratch,
                                              cudaStream_t stream) {
    char* tiles = static_cast<char*>(scratch) + ranks_before_tiles(a.width, a.height);
    return launch<float>(a, w, nullptr, scratch, tiles, stream);
}

}  // namespace fastmedian::kernels
