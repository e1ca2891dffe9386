// The generated networks' L::lo and L::hi on vector lanes (lanes_*.hpp). Internal
// linkage, as network_kernel.hpp explains.
#pragma once

namespace fastmedian::detail {
namespace {

template <class V>
struct LanesMinMax {
    static V lo(V a, V b) { return V::min(a, b); }
    static V hi(V a, V b) { return V::max(a, b); }
};

}  // namespace
}  // namespace fastmedian::detail
