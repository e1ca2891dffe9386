// What the CPU kernels work on: a block of output rows and the border-padded keys they read. Keys
// are the pixels themselves for u8 and u16 and order keys (semantics/order_key.hpp) for f32, so
// every kernel only ever compares unsigned integers.
#pragma once

#include <cstdint>

namespace fastmedian::detail {

// Rows of in and out may be read and written this many keys past their width, so vector loops
// need no tail code.
constexpr std::int64_t kRowSlackKeys = 64;

template <class K>
struct KeyBlock {
    // (rows + 2 * radius_y) rows of (width + 2 * radius_x) keys: in[r][p] is the pixel at
    // (row r - radius_y, column p - radius_x) relative to the block's first output row.
    const K* const* in = nullptr;
    std::int64_t in_keys = 0;    // keys allocated per in row: width + 2 * radius_x + slack
    K* out = nullptr;            // rows x width keys
    std::int64_t out_stride = 0;
    std::int64_t width = 0;
    int rows = 0;
    // Optional, for the network kernels. ahead[y] (or null): a source row of ahead_bytes that
    // a later block reads, touched while output row y is filtered so that it comes from memory
    // behind the work instead of in a copy loop of its own.
    const char* const* ahead = nullptr;
    std::int64_t ahead_bytes = 0;
    // direct[y] (or null): where output row y's pixels go for columns [direct_begin,
    // direct_end), a whole number of vectors that starts at a vector-aligned address; out
    // keeps the keys of the other columns. Streamed past the caches when `stream`.
    K* const* direct = nullptr;
    std::int64_t direct_begin = 0, direct_end = 0;
    bool stream = false;
};

// What the 3D network kernels work on: the rows x planes output rows of one network tile
// (median3d_network_kernel.hpp) and the padded key rows their windows reach.
template <class K>
struct VolumeKeyBlock {
    // (planes + 2 * radius_z) x (rows + 2 * radius_y) rows of width + 2 * radius_x keys (and
    // slack), plane after plane: in[p * (rows + 2 * radius_y) + r][c] is the voxel at (column
    // c - radius_x, row r - radius_y, plane p - radius_z) relative to the tile's first output.
    const K* const* in = nullptr;
    K* const* out = nullptr;  // rows of width keys (and slack): out[z * rows + y]
    std::int64_t width = 0;
};

}  // namespace fastmedian::detail
