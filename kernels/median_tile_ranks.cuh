// Large windows on u16 and f32 planes at a cost that does not depend on their values. A block
// of 32 output columns and `band` rows reads a tile of input: its windows' columns and rows,
// with the border's (the tile's slots). A first kernel sorts each tile's keys in shared memory
// (CUB's block radix sort) and numbers its slots in that order, ties apart: ranks 0 ... P - 1,
// each held by one slot. The median kernel then keeps, for each output, the set of its
// window's ranks as a bitmap of P bits, sliding down the band (a row clears the bits of the
// slots leaving the window and sets those entering it), and finds the median's rank by
// counting bits from the last one: a word's population count is the count of 32 ranks.
// Ranks are distinct, so a bit is the whole count of its rank: nothing is ever rebuilt, and
// noise, fractions and images of few values take the same work (the sliding histograms of
// median_histogram.cuh rebuild a fine histogram whenever the median leaves its coarse bin,
// which on full-range noise is every few rows).
// Serves windows whose tile of 32 + 2 rx columns and 16 + 2 ry rows fits the slots the GPU's
// shared memory holds (most_tile_slots).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "median_args.cuh"
#include "median_histogram.cuh"

namespace fastmedian::kernels {

// The most slots a tile may have on the active GPU policy: 32768 where a block's bitmaps (5
// bytes a slot) fit, else 16384, 12288 (sm_75) or 8192.
int most_tile_slots();

// Whether the path serves `window` on the active GPU (a band of at least 16 rows).
bool tile_ranks_serve(const ColumnsWindow& window);

// The device scratch the median of a plane of width x height takes, in bytes (tiles are ranked
// and filtered a chunk of tile rows at a time, so this is bounded).
std::size_t tile_ranks_scratch_bytes(int key_bytes, const ColumnsWindow& window, int width, int height);
// A row's share of that in a tall plane (before chunks bound it), for the plane pipeline's cuts.
std::size_t tile_ranks_row_bytes(int key_bytes, const ColumnsWindow& window, int width);

// Enqueues the median of each plane of `planes` in turn; `scratch` holds the bytes above.
// With `only_if` (device memory), the kernels do nothing where *only_if is 0.
cudaError_t launch_median_tile_ranks_u16(const PlanesArgs& planes, const ColumnsWindow& window, void* scratch,
                                         cudaStream_t stream, const std::uint32_t* only_if = nullptr);
cudaError_t launch_median_tile_ranks_f32(const PlanesArgs& planes, const ColumnsWindow& window, void* scratch,
                                         cudaStream_t stream, const std::uint32_t* only_if = nullptr);

}  // namespace fastmedian::kernels
