// The u8 3x3 median in registers only, without shared memory or barriers: each thread streams
// down a strip of rows, holding the last rows' keys, so that warps run independently and one's
// loads overlap another's network. It first ran faster than the tiled kernel
// (median_tiled.cuh), whose blocks stage to shared memory and then compute, in step, at 2048^2
// to 8192^2 (docs/notebook/gpu-median-h200-2026-11-26-stream3.md). Current figures:
// bench/RESULTS.md.
//
// A lane takes eight columns (one 8-byte load a row) and walks down a strip of rows
// (stream_strips.cuh); its packed keys hold columns j and j + 4 (j = 0..3) in their two 16-bit
// halves, so each min/max serves two outputs. A key is the pixel in both bytes of its 16-bit half
// (v * 0x101, ordered as the pixels), one PRMT a packed word. A lane used to take four
// columns of two strips (one per half) instead, slower by the loads and stores (twice the
// words, and two strips' extra rows; docs/notebook/gpu-median-h100-2026-11-27-lanes8.md).
//
// Each lane sorts its four keys' three rows, the pair of middle rows shared by two output rows;
// the sorted columns either side (x - 1, x + 8) come from the neighbouring lanes by shuffle, one
// half each with a half of its own (lanes 0 and 31 of a warp only load and sort, the 30 between
// output, 240 columns a warp). An output is then
// med3(max of the lows, med3 of the middles, min of the highs) of its three columns, the
// middles' pairs shared by neighbouring outputs: 7 min/max a pixel (8.25 when each lane sorted
// its neighbours' columns again, which ran slower:
// docs/notebook/gpu-median-h100-2026-11-26-overlap.md); 5 since the columns' middles and half
// the medians are sums on the FMA pipe (median3x3_stream.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels::stream3 {

// Whether the kernel serves these planes: 8-byte aligned rows in and out (it loads and stores
// eight pixels at a time); the tiled kernels take the others.
bool serves(const PlanesArgs& a);
cudaError_t launch(const PlanesArgs& a, cudaStream_t stream);

}  // namespace fastmedian::kernels::stream3
