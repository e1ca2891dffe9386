// Where each coordinate of a line padded by `radius` on both sides reads from, for the CPU
// backends: entry c is the source of coordinate c - radius, -1 for the constant.
#pragma once

#include <cstdint>
#include <vector>

#include "fastmedian/options.hpp"
#include "semantics/border_index.hpp"

namespace fastmedian::detail {

// For the `count` coordinates from `first` of a line of n (a box of the output: Origin), padded
// by `radius`: entry c is the source of coordinate first + c - radius.
inline std::vector<std::int64_t> border_table(std::int64_t n, int radius, Border border,
                                              std::int64_t first, std::int64_t count) {
    std::vector<std::int64_t> table(static_cast<std::size_t>(count + 2 * radius));
    for (std::int64_t c = 0; c < count + 2 * radius; ++c)
        table[c] = kernels::border_index(first + c - radius, n, static_cast<int>(border));
    return table;
}

inline std::vector<std::int64_t> border_table(std::int64_t n, int radius, Border border) {
    return border_table(n, radius, border, 0, n);
}

}  // namespace fastmedian::detail
