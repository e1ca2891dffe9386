// The separable median's sliding histogram (native/src/cpu/sliding_histogram.hpp) against a
// sorted copy of the window: every rank, 8- and 16-bit keys, windows that jump across the whole
// range (the 16-bit coarse skips, up and down, from and to the ends) and ones that creep.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "cpu/sliding_histogram.hpp"

namespace {

template <class K>
void expect_ranks_of_a_sliding_window(int n, const std::vector<K>& keys) {
    for (int rank : {0, n / 2, n - 1}) {
        fastmedian::detail::SlidingHistogram<K> h(rank);
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

template <class K>
std::vector<K> mixed_keys(unsigned seed, std::size_t count) {
    std::mt19937 rng(seed);
    const std::uint32_t top = (1u << (8 * sizeof(K))) - 1;
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

TEST(SlidingHistogram, EightBitRanksEqualASortedWindow) {
    for (int n : {1, 2, 3, 15, 129})
        expect_ranks_of_a_sliding_window<std::uint8_t>(n, mixed_keys<std::uint8_t>(n, 3000));
}

TEST(SlidingHistogram, SixteenBitRanksEqualASortedWindow) {
    for (int n : {1, 2, 3, 15, 129, 1023})
        expect_ranks_of_a_sliding_window<std::uint16_t>(n, mixed_keys<std::uint16_t>(n, 4000));
}

}  // namespace
