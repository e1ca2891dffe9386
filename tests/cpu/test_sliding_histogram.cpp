// The separable median's sliding histogram (native/src/cpu/sliding_histogram.hpp) against a
// sorted copy of the window: every rank, windows that jump across the whole range, up and down,
// from and to the ends, ones that creep and ones of few values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "cpu/sliding_histogram.hpp"

namespace {

using K = std::uint8_t;

void expect_ranks_of_a_sliding_window(int n, const std::vector<K>& keys) {
    for (int rank : {0, n / 2, n - 1}) {
        fastmedian::detail::SlidingHistogram h(rank);
        std::deque<K> window;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            h.add(keys[i]);
            window.push_back(keys[i]);
            if (window.size() > static_cast<std::size_t>(n)) {
                h.remove(window.front());
                window.pop_front();
            }
            if (window.size() < static_cast<std::size_t>(n)) continue;
            std::vector<K> sorted(window.begin(), window.end());
            std::nth_element(sorted.begin(), sorted.begin() + rank, sorted.end());
            ASSERT_EQ(h.value(), sorted[rank]) << "n=" << n << " rank=" << rank << " step " << i;
        }
    }
}

std::vector<K> mixed_keys(unsigned seed, std::size_t count) {
    std::mt19937 rng(seed);
    const std::uint32_t top = 255;
    std::vector<K> keys(count);
    std::uint32_t creep = top / 2;
    for (std::size_t i = 0; i < count; ++i) {
        switch ((i / 97) % 4) {
            case 0: keys[i] = static_cast<K>(rng() % (top + 1)); break;   // anywhere
            case 1: keys[i] = static_cast<K>(rng() % 2 ? 0 : top); break;  // the two ends
            case 2: creep = std::min<std::uint32_t>(top, creep + rng() % 3); keys[i] = static_cast<K>(creep); break;
            default: keys[i] = static_cast<K>(rng() % 5 + (rng() % 2 ? 250 : 0)); break;  // few values
        }
    }
    return keys;
}

TEST(SlidingHistogram, RanksEqualASortedWindow) {
    for (int n : {1, 2, 3, 15, 129, 1023})
        expect_ranks_of_a_sliding_window(n, mixed_keys(n, 4000));
}

}  // namespace
