// The hierarchical-tiling median kernel (see median_tiled.cuh), templated on a generated
// network; instantiated once per window size by the generated sources in
// generated/median_tiled/, so the sizes compile in parallel.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "semantics/border_index.hpp"
#include "fastmedian/image.hpp"
#include "median_args.cuh"
#include "generated/median_tiled/squares.cuh"
#include "median_lanes.cuh"
#include "float_keys.cuh"
#include "semantics/order_key.hpp"
#include "overlapped_launch.cuh"
#include "shared_memory.cuh"

namespace fastmedian::kernels::tiled {

// The keys of the tiled kernels (2D and 3D). Integers: OrderKey's. Floats: keys ordered as
// signed integers (SignedLanes), OrderKey's with the top bit flipped, so that a float in
// +0..+Inf is its own key, and a thread of the 2D kernel whose values all are (most microscopy
// images) converts nothing either way. The ALU pipe, which conversion shares with min/max,
// limits f32: faster than OrderKey's keys converted in three instructions each way at 3x3 to
// 7x7, even with a third of the values negative, and about the same from 9x9
// (docs/notebook/gpu-median-h100-2026-11-24-signed-keys.md).
template <class T> struct TileKey : OrderKey<T> {
    using Lanes = PackedLanes;
    __device__ static std::uint32_t from_order_key(std::uint32_t key) { return key; }
};
template <> struct TileKey<float> : SignedFloatKey {
    using Lanes = SignedLanes;
};

// Whether all of a thread's f32 words lie in +0..+Inf, where bits and keys are the same.
template <int N, int M>
__device__ __forceinline__ bool all_plain(const std::uint32_t (&words)[N][M]) {
    std::uint32_t high = 0;
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
        for (int j = 0; j < M; ++j) high = max(high, words[i][j]);
    return high <= TileKey<float>::kPlainMax;
}

// Makes a thread's staged f32 bits keys, unless all are their own keys: one test for the lot,
// as an image's values mostly are all in +0..+Inf or many are not. Loading the lot first also
// has every load in flight at once.
template <int N, int M>
__device__ __forceinline__ void float_bits_to_keys(std::uint32_t (&words)[N][M]) {
    if (!all_plain(words)) {
#pragma unroll
        for (int i = 0; i < N; ++i)
#pragma unroll
            for (int j = 0; j < M; ++j) words[i][j] = TileKey<float>::to_key(words[i][j]);
    }
}

// Where the 16-bit launch of an f32 plane (launch_whole_floats) wrote its blocks' outputs: the
// 32-bit launch then skips the blocks that lie in one marked 1.
struct WholeBlocks {
    std::uint8_t* marks = nullptr;  // one a block of the 16-bit launch; none for u8 and u16
    int block_w = 0, block_h = 0;   // that launch's blocks, in outputs
    int grid_x = 0, grid_y = 0;
    // The mark of that launch's block holding output (x, y) of plane z.
    __device__ std::uint8_t& mark(int z, int x, int y) const {
        return marks[(static_cast<std::size_t>(z) * grid_y + y / block_h) * grid_x + x / block_w];
    }
    // Whether that launch wrote outputs (x, y0..y1) of plane z: the blocks holding them all are
    // marked 1. A block of the 32-bit launch lies in one column of that launch's blocks, and in
    // one row of them where both have their most warps; with fewer (smaller GPUs) it may span
    // several.
    __device__ bool wrote(int z, int x, int y0, int y1) const {
        for (int y = y0 - y0 % block_h; y <= y1; y += block_h)
            if (!mark(z, x, y)) return false;
        return true;
    }
};

// Shared-memory words per phase row: enough for `cols` columns split into tw phases, and equal
// to 32 / tw modulo 32, so that 32 consecutive columns staged at once hit 32 different banks.
__host__ __device__ constexpr int phase_words(int cols, int tw) {
    int q = (cols + tw - 1) / tw;
    while (q % 32 != (32 / tw) % 32) ++q;
    return q;
}

// Writes lane h of keys[0..TW) as pixels row[x..x+TW) (Key::from_key; with Plain, f32 keys
// all in +0..+Inf, their bits), those inside the image: with one vector store when all are
// inside and the address is aligned.
template <class T, class L, class Key, bool Plain = false, int TW>
__device__ __forceinline__ void store_run(T* row, int x, int width, const std::uint32_t (&keys)[TW],
                                          int h) {
    T v[TW];
#pragma unroll
    for (int i = 0; i < TW; ++i) {
        if constexpr (Plain)
            v[i] = __uint_as_float(keys[i]);
        else
            v[i] = Key::from_key(lane_key<L>(keys[i], h));
    }
    constexpr int kBytes = TW * sizeof(T);
    using Vec = std::conditional_t<kBytes == 16, uint4,
                                   std::conditional_t<kBytes == 8, uint2, std::uint32_t>>;
    if constexpr (kBytes == 4 || kBytes == 8 || kBytes == 16) {
        if (x + TW <= width && reinterpret_cast<std::uintptr_t>(row + x) % kBytes == 0) {
            Vec w;
            memcpy(&w, v, kBytes);
            *reinterpret_cast<Vec*>(row + x) = w;
            return;
        }
    }
#pragma unroll
    for (int i = 0; i < TW; ++i)
        if (x + i < width) row[x + i] = v[i];
}

// Four pixels' keys from one vector load per half (4 u8, 4 u16 or 4 f32), as the staged words
// of four consecutive columns: C halves packed in each word (lo's pixels in the low 16 bits),
// each pixel's key to_key(pixel).
template <class T, int C, class ToKey>
__device__ __forceinline__ void vector_words(const T* lo, const T* hi, std::uint32_t (&words)[4],
                                             ToKey to_key) {
    using Vec = std::conditional_t<sizeof(T) == 1, std::uint32_t,
                                   std::conditional_t<sizeof(T) == 2, uint2, uint4>>;
    T v[2][4];
    const Vec a = *reinterpret_cast<const Vec*>(lo);
    memcpy(v[0], &a, sizeof a);
    if constexpr (C == 2) {
        const Vec b = *reinterpret_cast<const Vec*>(hi);
        memcpy(v[1], &b, sizeof b);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        words[i] = to_key(v[0][i]);
        if constexpr (C == 2) words[i] |= to_key(v[1][i]) << 16;
    }
}

// The staged tile of a network's blocks. Staged columns start kLead columns left of the
// block's first output (kLead >= R, a multiple of 4, so that interior blocks load 4 aligned
// pixels at a time); the window of output x starts at staged column x + kLead - R. Staged
// column c of row r lives at tile[r][c % TW][c / TW]: lane l's reads of column l * TW + c fall
// on consecutive words. Networks of sorted columns (Net::kSortedRows) also keep, for each warp,
// each staged column's rows that the warp's outputs share, sorted, in dynamic shared memory
// laid out the same way: sorted[warp][i][c % TW][c / TW]. Networks of groups (Net::kGroup 4 or
// 8 columns, TW a multiple of 4) keep after them those of the group's columns sorted together,
// groups[warp][i][s]: slot s starts at staged column 4 s + kFirstGroup + kShift, so lane l's
// group j is slot l TW / 4 + j kGroup / 4.
template <class Net>
struct TileShape {
    static constexpr int K = Net::kSize, TW = Net::kTileW, TH = Net::kTileH, R = K / 2;
    static constexpr int kWarps = Net::kWarps;  // stacked vertically
    static constexpr int kHalfW = 32 * TW;  // output columns of a warp (of one packed half)
    static constexpr int kLead = (R + 3) / 4 * 4;
    static constexpr int kShift = kLead - R;
    static constexpr int kInCols = (kLead + kHalfW + R + 3) / 4 * 4;  // staged columns per half
    static constexpr int kInRows = kWarps * TH + K - 1;
    static constexpr int kQ = phase_words(kInCols, TW);
    static constexpr int kSorted = Net::kSortedRows;
    static constexpr std::size_t kSortedBytes = sizeof(std::uint32_t) * kWarps * kSorted * TW * kQ;
    static constexpr int kGroup = Net::kGroup;
    // To lane 31's last group.
    static constexpr int kGroupSlots = kGroup > 0 ? 31 * TW / 4 + (Net::kGroups - 1) * kGroup / 4 + 1 : 0;
    static constexpr std::size_t kGroupBytes = sizeof(std::uint32_t) * kWarps * kGroup * kSorted * kGroupSlots;
    static constexpr std::size_t kDynamicBytes = kSortedBytes + kGroupBytes;
    static constexpr std::size_t kStaticBytes = sizeof(std::uint32_t) * kInRows * TW * kQ;  // the tile
    static constexpr std::size_t kBlockBytes = kStaticBytes + kDynamicBytes;
    static_assert(kGroup == 0 || TW % 4 == 0);
};

// Net in blocks of W warps instead of Net::kWarps, for GPUs with less shared memory a block
// (its sorted columns and groups take shared memory in proportion to the warps); compiled for
// as many more blocks an SM, so that a thread keeps the registers it has in Net's blocks.
template <class Net, int W>
struct WithWarps : Net {
    static constexpr int kWarps = W;
    static constexpr int kMinBlocksPacked = (Net::kMinBlocksPacked * Net::kWarps + W - 1) / W;
    static constexpr int kMinBlocksScalar = (Net::kMinBlocksScalar * Net::kWarps + W - 1) / W;
};
template <class Net, int W>
using Warps = std::conditional_t<W == Net::kWarps, Net, WithWarps<Net, W>>;

// The warps a block of a network may take, most first (generated: the most that fit each GPU
// policy's shared memory a block).
template <int... W>
struct WarpCounts {};

// Runs job(w, s) for each warp's rows w < kWarps and slot s < N, spread over the block's threads,
// then waits for the whole block: the phases that sort and merge the warps' shared rows.
template <int kWarps, int N, class Job>
__device__ __forceinline__ void block_jobs(const Job& job) {
    for (int j = threadIdx.x; j < kWarps * N; j += 32 * kWarps) job(j / N, j % N);
    __syncthreads();
}

// L: the lanes. Packed for u8 and u16: each word holds two halves' keys, the block's 32 * TW
// columns from x0 in its low 16 bits and the next 32 * TW in its high. Signed for f32 on
// 32-bit keys. Packed for f32 is the 16-bit launch of launch_whole_floats: a block whose values
// are not all whole numbers 0..65535 marks itself 0 and leaves its outputs to the 32-bit one.
template <class Net, class T, class L>
__global__ void __launch_bounds__(32 * Net::kWarps,
                                  L::kCols == 2 ? Net::kMinBlocksPacked : Net::kMinBlocksScalar)
median_tiled(const __grid_constant__ PlanesArgs a, const __grid_constant__ WholeBlocks whole) {
    // The body is compiled only for the architectures whose policy allows the block
    // (kArchSharedPerBlock): no GPU that runs another's code launches it
    // (TiledKernel::compiled_limit), and a release build's older architectures compile fewer
    // kernels. (The body in a device function of its own, called here, spilled more.)
#ifdef __CUDA_ARCH__
    if constexpr (TileShape<Net>::kBlockBytes <= kArchSharedPerBlock) {
#endif
    using Shape = TileShape<Net>;
    constexpr int K = Shape::K, TW = Shape::TW, TH = Shape::TH, R = Shape::R, kHalfW = Shape::kHalfW;
    constexpr int kLead = Shape::kLead, kShift = Shape::kShift, kInCols = Shape::kInCols;
    constexpr int kInRows = Shape::kInRows, kQ = Shape::kQ, kSorted = Shape::kSorted;
    constexpr int kWarps = Shape::kWarps, kGroup = Shape::kGroup, kGroupSlots = Shape::kGroupSlots;
    constexpr int kColSteps = (kInCols + 31) / 32;
    constexpr int kVecSteps = (kInCols / 4 + 31) / 32;
    constexpr bool kFloat = std::is_same_v<T, float>, kWholeFloats = kFloat && L::kCols == 2;
    __shared__ std::uint32_t tile[kInRows][TW][kQ];
    extern __shared__ __align__(16) unsigned char sorted_columns[];

    wait_for_previous_grid();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x0 = blockIdx.x * kHalfW * L::kCols, y0 = blockIdx.y * kWarps * TH;
    const int ox = x0 + lane * TW, oy = y0 + warp * TH;
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    if constexpr (kFloat && !kWholeFloats) {
        if (whole.marks != nullptr && whole.wrote(blockIdx.z, x0, y0, min(y0 + kWarps * TH, a.height) - 1))
            return;  // the 16-bit launch wrote this block's outputs
    }
    // The 16-bit launch: the constant's key, and whether the values seen so far were all whole
    // numbers 0..65535. One pixel a thread first, so that blocks of other values, where they
    // mostly are (fractions), leave at once without staging.
    std::uint32_t inexact = 0, top = 0, whole_outside = 0;
    if constexpr (kWholeFloats) {
        if (a.border == kConstant)
            whole_outside = WholeFloatKey::key(OrderKey<float>::from_key(a.outside_key), inexact, top);
        const float* row = reinterpret_cast<const float*>(
            plane + static_cast<std::int64_t>(min(oy, a.height - 1)) * a.src_pitch);
        WholeFloatKey::key(row[min(ox, a.width - 1)], inexact, top);
        if (__syncthreads_or(!WholeFloatKey::whole(inexact, top))) {
            if (threadIdx.x == 0) whole.mark(blockIdx.z, x0, y0) = 0;
            return;
        }
    }

    // Staging: warps take rows, lanes take columns (lane + 32 j). Interior blocks of aligned
    // images load 4 pixels at a time; others resolve the border once per column here and once
    // per row below.
    const int left = x0 - kLead;
    constexpr int kAlign = 4 * static_cast<int>(sizeof(T));
    const bool vectors = left >= 0 && left + (L::kCols - 1) * kHalfW + kInCols <= a.width &&
                         reinterpret_cast<std::uintptr_t>(a.src) % kAlign == 0 &&
                         a.src_pitch % kAlign == 0 && a.src_plane_stride % kAlign == 0;
    int sx[kColSteps][L::kCols];  // source column, -1 for the constant
    if (!vectors) {
#pragma unroll
        for (int j = 0; j < kColSteps; ++j)
#pragma unroll
            for (int h = 0; h < L::kCols; ++h)
                sx[j][h] = static_cast<int>(
                    border_index(left + lane + 32 * j + h * kHalfW, a.width, a.border));
    }
    // Where it measured faster (u8 5x5 and 7x7, f32 3x3 to 7x7; u16 5x5 and 7x7 even; not u8
    // 3x3, u16 9x9 and 11x11: docs/notebook/gpu-median-h100-2026-11-24-tasks.md), interior
    // blocks of aligned images stage (row, vector) tasks spread evenly over the block's threads
    // instead, so that no warp steps once more for the few vectors of a row past its 32 lanes.
    constexpr bool kByTasks = K == 5 || K == 7 || (K == 3 && L::kCols == 1);
    // A pixel's key, and the constant's.
    auto to_key = [&](T v) -> std::uint32_t {
        if constexpr (kWholeFloats)
            return WholeFloatKey::key(v, inexact, top);
        else
            return TileKey<T>::to_key(v);
    };
    const std::uint32_t outside = kWholeFloats ? whole_outside : TileKey<T>::from_order_key(a.outside_key);
    // Blocks whose staged rows all lie in the image (all but the top and bottom ones) stage
    // without resolving a row's border or testing for the constant: code of its own. There,
    // f32 on 32-bit keys loads its bits and float_bits_to_keys makes a thread's batch of them
    // keys at once.
    auto stage = [&](auto rows_inside) {
        constexpr bool kInside = decltype(rows_inside)::value;
        constexpr bool kBits = kFloat && !kWholeFloats && kInside;
        auto source_row = [&](int r) {
            return kInside ? y0 - R + r : static_cast<int>(border_index(y0 - R + r, a.height, a.border));
        };
        // The words of four columns from c on, of a staged row whose source row is sy.
        auto vector_load = [&](int c, int sy, std::uint32_t (&words)[4]) {
            if (!kInside && sy < 0) {
                words[0] = words[1] = words[2] = words[3] = L::kCols == 2 ? outside | outside << 16 : outside;
            } else {  // sy >= 0 here: unsigned arithmetic spares the ALU sign extensions
                const T* row = reinterpret_cast<const T*>(
                    plane + static_cast<std::uint64_t>(static_cast<std::uint32_t>(sy)) *
                                static_cast<std::uint64_t>(a.src_pitch));
                if constexpr (kBits)
                    vector_words<T, 1>(row + left + c, nullptr, words, [](float v) { return __float_as_uint(v); });
                else
                    vector_words<T, L::kCols>(row + left + c, row + left + c + kHalfW, words, to_key);
            }
        };
        auto vector_put = [&](int r, int c, const std::uint32_t (&words)[4]) {
#pragma unroll
            for (int q = 0; q < 4; ++q) tile[r][(c + q) % TW][(c + q) / TW] = words[q];
        };
        if (kByTasks && vectors) {
            constexpr int kVecs = kInCols / 4;
            constexpr int kTasks = kInRows * kVecs;
            constexpr int kThreads = 32 * kWarps;
            constexpr int kTaskSteps = (kTasks + kThreads - 1) / kThreads;
            auto for_each_task = [&](auto f) {  // f(i, r, c): the thread's task i, of row r, column c
#pragma unroll
                for (int i = 0; i < kTaskSteps; ++i) {
                    const unsigned t = threadIdx.x + i * kThreads;
                    if (kTasks % kThreads != 0 && t >= kTasks) break;
                    f(i, static_cast<int>(t / kVecs), static_cast<int>(4 * (t % kVecs)));
                }
            };
            std::uint32_t words[kTaskSteps][4] = {};  // those of no task stay 0, a plain key
            for_each_task([&](int i, int r, int c) {
                vector_load(c, source_row(r), words[i]);
                if constexpr (!kBits) vector_put(r, c, words[i]);
            });
            if constexpr (kBits) {
                float_bits_to_keys(words);
                for_each_task([&](int i, int r, int c) { vector_put(r, c, words[i]); });
            }
            return;
        }
        // For small windows, where staging is a large part of the work, unrolled over the
        // warp's rows so that all of a thread's loads are in flight at once (faster at 3x3 and
        // 5x5; from 11x11 up it slowed the network, which then has fewer registers:
        // docs/notebook/tuning-figures-from-comments.md).
        constexpr int kStageRows = (kInRows + kWarps - 1) / kWarps;
        constexpr int kStageUnroll = K <= 7 ? kStageRows : 1;
#pragma unroll kStageUnroll
        for (int i = 0; i < kStageRows; ++i) {
            const int r = warp + i * kWarps;
            if (kInRows % kWarps != 0 && r >= kInRows) break;
            const int sy = source_row(r);
            if (vectors) {
                std::uint32_t words[kVecSteps][4] = {};  // those past the row stay 0, a plain key
#pragma unroll
                for (int j = 0; j < kVecSteps; ++j) {
                    const int c = 4 * (lane + 32 * j);
                    if ((kInCols / 4) % 32 != 0 && c >= kInCols) break;
                    vector_load(c, sy, words[j]);
                    if constexpr (!kBits) vector_put(r, c, words[j]);
                }
                if constexpr (kBits) {
                    float_bits_to_keys(words);
#pragma unroll
                    for (int j = 0; j < kVecSteps; ++j) {
                        const int c = 4 * (lane + 32 * j);
                        if ((kInCols / 4) % 32 != 0 && c >= kInCols) break;
                        vector_put(r, c, words[j]);
                    }
                }
                continue;
            }
            const T* row =
                reinterpret_cast<const T*>(plane + static_cast<std::int64_t>(sy < 0 ? 0 : sy) * a.src_pitch);
#pragma unroll
            for (int j = 0; j < kColSteps; ++j) {
                const int c = lane + 32 * j;
                if (kInCols % 32 != 0 && c >= kInCols) break;
                std::uint32_t word = 0;
#pragma unroll
                for (int h = 0; h < L::kCols; ++h)
                    word |= ((!kInside && sy < 0) || sx[j][h] < 0 ? outside : to_key(row[sx[j][h]]))
                            << (16 * h);
                tile[r][c % TW][c / TW] = word;
            }
        }
    };
    if (y0 >= R && y0 - R + kInRows <= a.height)
        stage(std::true_type{});
    else
        stage(std::false_type{});
    if constexpr (kWholeFloats) {
        const bool all_whole = __syncthreads_and(WholeFloatKey::whole(inexact, top));
        if (threadIdx.x == 0) whole.mark(blockIdx.z, x0, y0) = all_whole;
        if (!all_whole) return;
    } else {
        __syncthreads();
    }

    // Sorted columns: a job for each warp's rows and staged column, spread over the block.
    using Sorted = std::uint32_t[kWarps][kSorted > 0 ? kSorted : 1][TW][kQ];
    Sorted& sorted = *reinterpret_cast<Sorted*>(sorted_columns);
    if constexpr (kSorted > 0) {
        block_jobs<kWarps, kInCols>([&](int w, int c) {
            std::uint32_t v[kSorted];
#pragma unroll
            for (int i = 0; i < kSorted; ++i) v[i] = tile[w * TH + TH - 1 + i][c % TW][c / TW];
            Net::template sort_column<L>(v);
#pragma unroll
            for (int i = 0; i < kSorted; ++i) sorted[w][i][c % TW][c / TW] = v[i];
        });
    }
    // Groups: a job for each warp's rows and slot, merging its sorted columns four by four
    // (sort_quad), and for octets the two quads (sort_octet).
    using Groups = std::uint32_t[kWarps][kGroup > 0 ? kGroup * kSorted : 1][kGroupSlots > 0 ? kGroupSlots : 1];
    Groups& groups = *reinterpret_cast<Groups*>(sorted_columns + Shape::kSortedBytes);
    if constexpr (kGroup > 0) {
        block_jobs<kWarps, kGroupSlots>([&](int w, int s) {
            const int c0 = 4 * s + Net::kFirstGroup + kShift;
            std::uint32_t v[kGroup * kSorted];
#pragma unroll
            for (int h = 0; h < kGroup / 4; ++h) {
                std::uint32_t q[4 * kSorted];
#pragma unroll
                for (int j = 0; j < 4; ++j)
#pragma unroll
                    for (int i = 0; i < kSorted; ++i)
                        q[j * kSorted + i] = sorted[w][i][(c0 + 4 * h + j) % TW][(c0 + 4 * h + j) / TW];
                Net::template sort_quad<L>(q);
#pragma unroll
                for (int i = 0; i < 4 * kSorted; ++i) v[h * 4 * kSorted + i] = q[i];
            }
            if constexpr (kGroup == 8) Net::template sort_octet<L>(v);
#pragma unroll
            for (int i = 0; i < kGroup * kSorted; ++i) groups[w][i][s] = v[i];
        });
    }

    if (ox >= a.width || oy >= a.height) return;  // the packed half to the right is outside too
    auto in = [&](int c, int r) {
        return tile[warp * TH + r][(c + kShift) % TW][lane + (c + kShift) / TW];
    };
    std::uint32_t keys[TH][TW];
    auto out = [&](int x, int y, std::uint32_t k) { keys[y][x] = k; };
    if constexpr (kSorted > 0) {
        auto col = [&](int c, int i) { return sorted[warp][i][(c + kShift) % TW][lane + (c + kShift) / TW]; };
        if constexpr (kGroup > 0) {
            auto group = [&](int c, int i) { return groups[warp][i][lane * (TW / 4) + (c - Net::kFirstGroup) / 4]; };
            Net::template run<L>(in, col, group, out);
        } else {
            Net::template run<L>(in, col, out);
        }
    } else {
        Net::template run<L>(in, out);
    }

    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    using Key = std::conditional_t<kWholeFloats, WholeFloatKey, TileKey<T>>;
    auto store = [&](auto plain) {
#pragma unroll
        for (int y = 0; y < TH; ++y) {
            if (oy + y >= a.height) break;
            T* row = reinterpret_cast<T*>(out_plane + static_cast<std::int64_t>(oy + y) * a.dst_pitch);
#pragma unroll
            for (int h = 0; h < L::kCols; ++h)
                store_run<T, L, Key, decltype(plain)::value>(row, ox + h * kHalfW, a.width, keys[y], h);
        }
    };
    if constexpr (kFloat && !kWholeFloats) {  // float keys in +0..+Inf are the pixels' bits
        if (all_plain(keys)) {
            store(std::true_type{});
            return;
        }
    }
    store(std::false_type{});
#ifdef __CUDA_ARCH__
    }
#endif
}

template <class Net, class L>
dim3 grid_for(const PlanesArgs& a) {
    constexpr int kBlockW = 32 * Net::kTileW * L::kCols, kBlockH = Net::kWarps * Net::kTileH;
    return dim3((a.width + kBlockW - 1) / kBlockW, (a.height + kBlockH - 1) / kBlockH, a.planes);
}

// One kernel: Net on lanes L for pixels T. The generated squareK.cuh declares each of a
// square's kernels `extern template` and squareK_TYPE.cu instantiates them, so that each pixel
// type's kernels compile in a file of their own, in parallel.
template <class Net, class T, class L>
struct TiledKernel {
    static constexpr std::size_t kBlockBytes = TileShape<Net>::kBlockBytes;
    // Whether the grid for planes of this height fits (grid.y <= 65535), and a block fits the
    // shared memory the GPU's policy allows and the code the GPU runs has the kernel's body.
    static bool fits(int height);
    static cudaError_t launch(const PlanesArgs& a, const WholeBlocks& whole, cudaStream_t stream);
    // The shared memory a block may have under the policy of the architecture whose code the
    // GPU runs (compiled_shared_per_block; it may be older than the GPU's own): median_tiled has
    // its body only where its block fits that. 0 if unknown.
    static std::size_t compiled_limit();
};

template <class Net, class T, class L>
std::size_t TiledKernel<Net, T, L>::compiled_limit() {
    std::size_t bytes = 0;
    if (compiled_shared_per_block(reinterpret_cast<const void*>(median_tiled<Net, T, L>), bytes) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return bytes;
}

template <class Net, class T, class L>
bool TiledKernel<Net, T, L>::fits(int height) {
    PlanesArgs a{};
    a.width = a.planes = 1;
    a.height = height;
    return grid_for<Net, ScalarLanes>(a).y <= 65535 && shared_fits(median_tiled<Net, T, L>, TileShape<Net>::kDynamicBytes) &&
           kBlockBytes <= compiled_limit();
}

template <class Net, class T, class L>
cudaError_t TiledKernel<Net, T, L>::launch(const PlanesArgs& a, const WholeBlocks& whole, cudaStream_t stream) {
    const dim3 grid = grid_for<Net, L>(a);
    if (grid.y > 65535) return cudaErrorInvalidConfiguration;
    constexpr std::size_t kDynamicBytes = TileShape<Net>::kDynamicBytes;
    const cudaError_t e = opt_in_shared(median_tiled<Net, T, L>, kDynamicBytes);
    if (e != cudaSuccess) return e;
    if (const std::size_t compiled = compiled_limit(); kBlockBytes > compiled) {
        note_shared_refusal(kBlockBytes, compiled);
        return cudaErrorInvalidConfiguration;
    }
    return launch_overlapped(median_tiled<Net, T, L>, grid, dim3(32 * Net::kWarps), kDynamicBytes, stream, a, whole);
}

// The first of the warp counts whose block of Net on lanes L fits (TiledKernel::fits); 0 if none.
template <class Net, class T, class L, int... W>
int fitting_warps(WarpCounts<W...>, int height) {
    constexpr int kCounts[] = {W...};
    const bool fit[] = {TiledKernel<Warps<Net, W>, T, L>::fits(height)...};
    for (std::size_t i = 0; i < sizeof...(W); ++i)
        if (fit[i]) return kCounts[i];
    return 0;
}

// Whether each launch that launch<Packed, Scalar, ...>() makes for `type` fits at one of its
// warp counts.
template <class Packed, class Scalar, class PackedWarps, class ScalarWarps>
bool fits(PixelType type, int height) {
    switch (type) {
        case PixelType::u8: return fitting_warps<Packed, std::uint8_t, PackedLanes>(PackedWarps{}, height) != 0;
        case PixelType::u16: return fitting_warps<Packed, std::uint16_t, PackedLanes>(PackedWarps{}, height) != 0;
        case PixelType::f32:
            if (fitting_warps<Scalar, float, SignedLanes>(ScalarWarps{}, height) == 0) return false;
            if constexpr (Packed::kSize >= kWholeFloatsFrom)
                return fitting_warps<Packed, float, PackedAluLanes>(PackedWarps{}, height) != 0;
            else
                return true;
    }
    return false;
}

// Launches Net on lanes L in blocks of `warps` warps, one of W; with none (0), of the most, so
// that the refusal says what the block needs (opt_in_shared).
template <class Net, class T, class L, int... W>
cudaError_t launch_warps(WarpCounts<W...>, int warps, const PlanesArgs& a, const WholeBlocks& whole,
                         cudaStream_t stream) {
    using Launch = cudaError_t (*)(const PlanesArgs&, const WholeBlocks&, cudaStream_t);
    constexpr int kCounts[] = {W...};
    constexpr Launch kLaunches[] = {&TiledKernel<Warps<Net, W>, T, L>::launch...};
    for (std::size_t i = 0; i < sizeof...(W); ++i)
        if (kCounts[i] == warps) return kLaunches[i](a, whole, stream);
    return kLaunches[0](a, whole, stream);
}

template <class Net, class T, class L, class Counts>
cudaError_t launch_fitting(const PlanesArgs& a, const WholeBlocks& whole, cudaStream_t stream) {
    return launch_warps<Net, T, L>(Counts{}, fitting_warps<Net, T, L>(Counts{}, a.height), a, whole, stream);
}

template <int... W>
constexpr int fewest(WarpCounts<W...>) {
    return std::min({W...});
}

// f32 in two launches: the packed networks on the blocks whose values all are whole numbers
// 0..65535 (16-bit keys), then 32-bit keys on the rest, whose blocks each lie in one column of
// blocks of the first (the first's blocks are whole multiples of the second's in width) and
// skip where the first wrote all their outputs. `marks` holds whole_marks_bytes(a) bytes.
template <class Packed, class Scalar, class PackedWarps, class ScalarWarps>
cudaError_t launch_whole_floats(const PlanesArgs& a, std::uint8_t* marks, cudaStream_t stream) {
    constexpr int kBlockW = 32 * Packed::kTileW * 2;
    static_assert(kBlockW % (32 * Scalar::kTileW) == 0);
    static_assert(kBlockW >= kWholeMarkW && fewest(PackedWarps{}) * Packed::kTileH >= kWholeMarkH);  // whole_marks_bytes suffices
    const int warps = fitting_warps<Packed, float, PackedAluLanes>(PackedWarps{}, a.height);
    const int block_h = (warps == 0 ? Packed::kWarps : warps) * Packed::kTileH;
    const WholeBlocks whole{marks, kBlockW, block_h, (a.width + kBlockW - 1) / kBlockW, (a.height + block_h - 1) / block_h};
    const cudaError_t e = launch_warps<Packed, float, PackedAluLanes>(PackedWarps{}, warps, a, whole, stream);
    return e != cudaSuccess ? e : launch_fitting<Scalar, float, SignedLanes, ScalarWarps>(a, whole, stream);
}

// Packed serves u8 and u16 (u16x2 lanes); f32 takes both from kWholeFloatsFrom up, else Scalar
// (32-bit lanes); each in blocks of the most warps that fit.
template <class Packed, class Scalar, class PackedWarps, class ScalarWarps>
cudaError_t launch(PixelType type, const PlanesArgs& a, std::uint8_t* marks, cudaStream_t stream) {
    switch (type) {
        case PixelType::u8: return launch_fitting<Packed, std::uint8_t, PackedLanes, PackedWarps>(a, {}, stream);
        case PixelType::u16: return launch_fitting<Packed, std::uint16_t, PackedLanes, PackedWarps>(a, {}, stream);
        case PixelType::f32:
            if constexpr (Packed::kSize >= kWholeFloatsFrom)
                return launch_whole_floats<Packed, Scalar, PackedWarps, ScalarWarps>(a, marks, stream);
            else
                return launch_fitting<Scalar, float, SignedLanes, ScalarWarps>(a, {}, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels::tiled
