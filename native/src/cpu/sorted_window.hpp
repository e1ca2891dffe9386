// A sliding window kept sorted: one key leaves and one enters per step, and only the keys
// between their two places move. Serves the temporal median's and the 1D medians' long windows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fastmedian::detail {

// Windows up to this long find their keys by counting rather than by binary search.
constexpr std::int64_t kCountingWindow = 256;

// Replaces one copy of old_key in the sorted win[0..n) by new_key, keeping it sorted.
template <class K>
void sorted_window_replace(K* win, std::int64_t n, K old_key, K new_key) {
    if (new_key == old_key) return;
    std::int64_t i, p;  // old_key's index; new_key's insertion point
    if (n <= kCountingWindow) {
        // Counting is branch-free and vectorises; binary searches mispredict every step.
        using Count = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint16_t>;
        Count below_old = 0, below_new = 0, upto_new = 0;
        for (int k = 0; k < static_cast<int>(n); ++k) {
            below_old += win[k] < old_key ? 1 : 0;
            below_new += win[k] < new_key ? 1 : 0;
            upto_new += win[k] <= new_key ? 1 : 0;
        }
        i = below_old;
        p = new_key > old_key ? below_new : upto_new;
    } else {
        i = std::lower_bound(win, win + n, old_key) - win;
        p = new_key > old_key ? std::lower_bound(win + i + 1, win + n, new_key) - win
                              : std::upper_bound(win, win + i, new_key) - win;
    }
    if (new_key > old_key) {  // win[i+1 .. p) < new_key move down one
        std::memmove(win + i, win + i + 1, (p - i - 1) * sizeof(K));
        win[p - 1] = new_key;
    } else {                  // win[p .. i) > new_key move up one
        std::memmove(win + p + 1, win + p, (i - p) * sizeof(K));
        win[p] = new_key;
    }
}

}  // namespace fastmedian::detail
