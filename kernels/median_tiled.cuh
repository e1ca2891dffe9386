// Squares 3 to 21 by hierarchical tiling: each thread computes a tile of outputs with a
// generated network (tools/generators/median_tiled.py) that sorts what the tile's windows share
// once and only merges in what each smaller group of outputs adds. Each block stages its inputs
// as keys in shared memory, border resolved once per row and column, laid out so that the 32
// lanes of a warp read 32 different banks. u8 and u16 threads run two tiles at once as packed
// u16x2 lanes: the tile at column x and the one 32 tiles to its right. f32 from 5x5 up runs
// them too on the blocks whose values all are whole numbers 0..65535, marking which in device
// memory the caller gives, and 32-bit keys on the rest.
//   tiled::serves_square(k, height), tiled::takes_whole_marks(k, type),
//   tiled::whole_marks_bytes(planes), tiled::launch_square(k, type, planes, whole_marks, stream)
#pragma once

#include "generated/median_tiled/squares.cuh"
