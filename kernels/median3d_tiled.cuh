// Hierarchical tiling for 3D medians (the 2D method of median_tiled.cuh over voxel sets): a
// thread computes a TW x TH x TD tile of outputs with a network from
// tools/generators/median3d_tiled.py (generated/median3d_tiled/<window>.cu; the CPU backend
// runs the same method's networks with other tiles) that sorts what the tile's windows share
// once, merges each sub-tile's extra voxels, and drops the ranks that can no longer be a
// median. Blocks stage their input box (border resolved, as order keys) in shared memory. u8
// and u16 run two tiles per thread as u16x2 lanes.
#pragma once

#include "generated/median3d_tiled/windows.cuh"
