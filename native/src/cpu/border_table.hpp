// Where each coordinate of a line padded by `radius` on both sides reads from, for the CPU
// backends: entry c is the source of coordinate c - radius, -1 for the constant.
#pragma once

#include <cstdint>
#include <vector>

#include "border_index.cuh"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

inline std::vector<std::int64_t> border_table(std::int64_t n, int radius, Border border) {
    std::vector<std::int64_t> table(static_cast<std::size_t>(n + 2 * radius));
    for (std::int64_t c = 0; c < n + 2 * radius; ++c)
        table[c] = kernels::border_index(c - radius, n, static_cast<int>(border));
    return table;
}

}  // namespace fastmedian::detail
