// One key per "vector": the portable lane type the network kernel runs on without AVX2.
#pragma once

#include <cstdint>

namespace fastmedian::detail {

template <class K>
struct ScalarLanes {
    static constexpr int kLanes = 1;
    K v;
    static ScalarLanes load(const K* p) { return {*p}; }
    void store(K* p) const { *p = v; }
    static ScalarLanes min(ScalarLanes a, ScalarLanes b) { return {b.v < a.v ? b.v : a.v}; }
    static ScalarLanes max(ScalarLanes a, ScalarLanes b) { return {a.v < b.v ? b.v : a.v}; }
};

}  // namespace fastmedian::detail
