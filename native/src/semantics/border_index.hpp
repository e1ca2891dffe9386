// Where a coordinate outside [0, n) reads from, for each border mode. One definition for the
// CPU backend and every kernel, so they extend images identically. Modes are numbered as
// fastmedian::Border (replicate, reflect, mirror, constant, wrap).
#pragma once

#include <cstdint>

#include "semantics/fm_hd.hpp"

namespace fastmedian::kernels {

enum BorderMode : int { kReplicate = 0, kReflect = 1, kMirror = 2, kConstant = 3, kWrap = 4 };

FM_HD std::int64_t floor_mod(std::int64_t i, std::int64_t n) {
    std::int64_t m = i % n;
    return m < 0 ? m + n : m;
}

// The index to read for coordinate i in a line of n >= 1 pixels, or -1 for "use the constant".
FM_HD std::int64_t border_index(std::int64_t i, std::int64_t n, int mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case kReplicate: return i < 0 ? 0 : n - 1;
        case kReflect: {  // d c b a | a b c d | d c b a, period 2n
            // Within one reflection of the line (the kernels' usual case) without the division,
            // which the GPU does in software.
            if (i >= -n && i < 2 * n) return i < 0 ? -1 - i : 2 * n - 1 - i;
            std::int64_t m = floor_mod(i, 2 * n);
            return m < n ? m : 2 * n - 1 - m;
        }
        case kMirror: {  // d c b | a b c d | c b a, period 2n - 2
            if (n == 1) return 0;
            if (i > -n && i < 2 * n - 1) return i < 0 ? -i : 2 * n - 2 - i;
            std::int64_t m = floor_mod(i, 2 * n - 2);
            return m < n ? m : 2 * n - 2 - m;
        }
        case kWrap: return i >= -n && i < 2 * n ? (i < 0 ? i + n : i - n) : floor_mod(i, n);
        default: return -1;  // kConstant
    }
}

}  // namespace fastmedian::kernels
