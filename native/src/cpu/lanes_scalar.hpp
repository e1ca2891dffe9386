// One key per "vector": the portable lane type the network kernel runs on without AVX2.
#pragma once

#include <cstdint>

#include "cpu/key_convert.hpp"

namespace fastmedian::detail {

template <class K>
struct ScalarLanes {
    static constexpr int kLanes = 1;
    K v;
    static ScalarLanes load(const K* p) { return {*p}; }
    void store(K* p) const { *p = v; }
    void stream(K* p) const { *p = v; }
    static void stream_fence() {}
    static ScalarLanes min(ScalarLanes a, ScalarLanes b) { return {b.v < a.v ? b.v : a.v}; }
    static ScalarLanes max(ScalarLanes a, ScalarLanes b) { return {a.v < b.v ? b.v : a.v}; }
};

// Keys back into pixels' bits: u8 and u16 keys are the pixels; u32 keys are floats' order keys.
template <class K>
ScalarLanes<K> pixel_bits(ScalarLanes<K> keys) {
    return keys;
}
inline ScalarLanes<std::uint32_t> pixel_bits(ScalarLanes<std::uint32_t> keys) {
    return {key_to_float_bits(keys.v)};
}

}  // namespace fastmedian::detail
