// The temporal median's window: output frame t of `frames` uses frames [s, s + window) with
// s = t - window / 2 clamped to [0, frames - window] (fastmedian/temporal.hpp).
#pragma once

#include <cstdint>

#include "semantics/fm_hd.hpp"

namespace fastmedian::kernels {

FM_HD std::int64_t temporal_start(std::int64_t t, std::int64_t frames, int window) {
    const std::int64_t s = t - window / 2;
    const std::int64_t last = frames - window;
    return s < 0 ? 0 : (s > last ? last : s);
}

}  // namespace fastmedian::kernels
