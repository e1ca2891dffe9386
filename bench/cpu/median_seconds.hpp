// The CPU benchmarks' timing: the median seconds of `runs` calls after one warm-up.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <utility>
#include <vector>

inline double seconds(const std::function<void()>& call) {
    const auto start = std::chrono::steady_clock::now();
    call();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline double median_of(std::vector<double> t) {
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
}

inline double median_seconds(int runs, const std::function<void()>& call) {
    call();
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) t.push_back(seconds(call));
    return median_of(t);
}

// The median seconds of `runs` calls of a and of b, called in turns so that a busy spell of a
// shared machine slows both alike.
inline std::pair<double, double> median_seconds_in_turns(int runs, const std::function<void()>& a,
                                                         const std::function<void()>& b) {
    a();
    b();
    std::vector<double> ta, tb;
    for (int i = 0; i < runs; ++i) {
        ta.push_back(seconds(a));
        tb.push_back(seconds(b));
    }
    return {median_of(ta), median_of(tb)};
}
