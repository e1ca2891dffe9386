// The CPU benchmarks' timing: the median seconds of `runs` calls after one warm-up.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

inline double median_seconds(int runs, const std::function<void()>& call) {
    call();
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        call();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(t.begin(), t.begin() + runs / 2, t.end());
    return t[runs / 2];
}
