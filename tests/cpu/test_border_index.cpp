// border_index (semantics/border_index.hpp), which every backend extends images with: its one-
// reflection shortcuts equal the periodic definitions of each mode far past both ends of lines
// of every length from 1.
#include <gtest/gtest.h>

#include <cstdint>

#include "semantics/border_index.hpp"

namespace {

using fastmedian::kernels::border_index;

std::int64_t periodic(std::int64_t i, std::int64_t n, int mode) {
    auto mod = [](std::int64_t a, std::int64_t p) { return ((a % p) + p) % p; };
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case fastmedian::kernels::kReplicate: return i < 0 ? 0 : n - 1;
        case fastmedian::kernels::kReflect: {
            const std::int64_t m = mod(i, 2 * n);
            return m < n ? m : 2 * n - 1 - m;
        }
        case fastmedian::kernels::kMirror: {
            if (n == 1) return 0;
            const std::int64_t m = mod(i, 2 * n - 2);
            return m < n ? m : 2 * n - 2 - m;
        }
        case fastmedian::kernels::kWrap: return mod(i, n);
        default: return -1;
    }
}

TEST(BorderIndex, EqualsThePeriodicDefinitions) {
    for (int mode = 0; mode <= 4; ++mode)
        for (std::int64_t n = 1; n <= 12; ++n)
            for (std::int64_t i = -5 * n - 3; i <= 6 * n + 3; ++i)
                ASSERT_EQ(border_index(i, n, mode), periodic(i, n, mode)) << "mode " << mode << " n " << n << " i " << i;
}

}  // namespace
