// A window as rows of centred runs: row dy (from -radius_y to radius_y) covers
// dx in [-half_width[dy + radius_y], +half_width[dy + radius_y]]. Squares and ImageJ's circles
// share this form, so every backend handles both through one loop.
#pragma once

#include <cstdint>
#include <vector>

#include "fastmedian/options.hpp"

namespace fastmedian::detail {

struct Footprint {
    int radius_y = 0;
    int radius_x = 0;             // the largest half width
    std::vector<int> half_width;  // 2 * radius_y + 1 entries
    std::int64_t count = 0;       // pixels in the window
    std::int64_t rank() const { return (count - 1) / 2; }
    // Every row as wide as the window is tall (ImageJ's circle of radius 1 is the 3x3 square).
    bool square() const {
        for (int hw : half_width)
            if (hw != radius_y) return false;
        return true;
    }
};

// Expects a validated window.
Footprint make_footprint(const Window& window);

}  // namespace fastmedian::detail
