// Squares 3 to 21 by hierarchical tiling: each thread computes a tile of outputs with a
// generated network (tools/gen_cuda_tiled_medians.py) that sorts what the tile's windows share
// once and only merges in what each smaller group of outputs adds. Each block stages its inputs
// as keys in shared memory, border resolved once per row and column, laid out so that the 32
// lanes of a warp read 32 different banks. u8 and u16 threads run two tiles at once as packed
// u16x2 lanes: the tile at column x and the one 32 tiles to its right.
//   tiled::serves_square(k, height), tiled::launch_square(k, type, planes, stream)
#pragma once

#include "generated/median_tiled/squares.cuh"
