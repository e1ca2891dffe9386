// The u8 3x3 median in registers only, without shared memory or barriers: each thread streams
// down a strip of rows, holding the last rows' keys, so that warps run independently and one's
// loads overlap another's network. Through the library on the H200 it first ran 362-373 / 650 /
// 853 Gpix/s at 2048^2 / 4096^2 / 8192^2 against the tiled kernel's (median_tiled.cuh) 348 /
// 636 / 749, whose blocks stage to shared memory and then compute, in step
// (bench/results/gpu-median-h200-2026-11-26-stream3.md); on the H100 now 530 / 872-880 / 1022
// (bench/results/gpu-median-h100-2026-11-26-overlap.md).
//
// A lane takes four columns (one 4-byte load a row) and two strips of rows (stream_strips.cuh),
// one per packed half (lane 0 of a u16x2 word the upper strip, lane 1 the lower), so each
// min/max serves two outputs. A key is the pixel in both bytes of its 16-bit half (v * 0x101,
// ordered as the pixels), one PRMT a packed word.
//
// Each lane sorts its four columns' three rows, the pair of middle rows shared by two output
// rows; the sorted columns either side come from the neighbouring lanes by shuffle (lanes 0 and
// 31 of a warp only load and sort, the 30 between output, 120 columns a warp). An output is then
// med3(max of the lows, med3 of the middles, min of the highs) of its three columns, the
// middles' pairs shared by neighbouring outputs: 7 min/max a pixel (8.25 when each lane sorted
// its neighbours' columns again: H100 4096^2 687 -> 766 Gpix/s); 5 since the columns' middles
// and half the medians are sums on the FMA pipe (median3x3_stream.cu: 873 -> 910).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "median_args.cuh"

namespace fastmedian::kernels::stream3 {

// Whether the kernel serves these planes: 4-byte aligned rows in and out (it loads and stores a
// word of four pixels at a time).
bool serves(const PlanesArgs& a);
cudaError_t launch(const PlanesArgs& a, cudaStream_t stream);

}  // namespace fastmedian::kernels::stream3
