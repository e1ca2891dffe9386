// The temporal median of up to kernels::kMaxFrameNetwork rows of keys, pixel by pixel, with the
// generated networks (native/src/networks/generated/temporal_networks.hpp) vectorised across
// neighbouring pixels. Included by each ISA build (kernels_avx2.cpp, kernels_portable.cpp), with
// internal linkage as network_kernel.hpp explains.
#pragma once

#include <cstdint>

#include "cpu/lanes_min_max.hpp"
#include "cpu/lanes_scalar.hpp"
#include "networks/generated/temporal_networks.hpp"

namespace fastmedian::detail {
namespace {

template <class Lanes, int N, class K>
void frame_network_n(const K* const* rows, std::int64_t width, K* out) {
    std::int64_t x = 0;
    for (; x + Lanes::kLanes <= width; x += Lanes::kLanes) {
        Lanes v[N];
        for (int i = 0; i < N; ++i) v[i] = Lanes::load(rows[i] + x);
        kernels::median_of_frames<N, LanesMinMax<Lanes>>(v).store(out + x);
    }
    for (; x < width; ++x) {
        ScalarLanes<K> v[N];
        for (int i = 0; i < N; ++i) v[i] = ScalarLanes<K>::load(rows[i] + x);
        kernels::median_of_frames<N, LanesMinMax<ScalarLanes<K>>>(v).store(out + x);
    }
}

template <class Lanes, class K>
void frame_network(const K* const* rows, int n, std::int64_t width, K* out) {
    switch (n) {
        case 1: frame_network_n<Lanes, 1>(rows, width, out); break;
        case 2: frame_network_n<Lanes, 2>(rows, width, out); break;
        case 3: frame_network_n<Lanes, 3>(rows, width, out); break;
        case 4: frame_network_n<Lanes, 4>(rows, width, out); break;
        case 5: frame_network_n<Lanes, 5>(rows, width, out); break;
        case 6: frame_network_n<Lanes, 6>(rows, width, out); break;
        case 7: frame_network_n<Lanes, 7>(rows, width, out); break;
        case 8: frame_network_n<Lanes, 8>(rows, width, out); break;
        case 9: frame_network_n<Lanes, 9>(rows, width, out); break;
        default: frame_network_n<Lanes, 10>(rows, width, out); break;
    }
    static_assert(kernels::kMaxFrameNetwork == 10, "extend the switch");
}

}  // namespace
}  // namespace fastmedian::detail
