// The fast CPU median: the backend that median2d runs on the CPU. It pads each block of rows once
// (semantics/border_index.hpp), turns pixels into unsigned keys (semantics/order_key.hpp), filters
// with generated selection networks (small windows; AVX-512 or AVX2 where the CPU has them) or
// sliding histograms (everything else), on all cores. Same bits as median2d_reference. The
// environment variable FASTMEDIAN_CPU_AVX2=0 selects the portable kernels even where the CPU has
// AVX2, and FASTMEDIAN_CPU_AVX512=0 the AVX2 ones where it has AVX-512.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"
#include "semantics/footprint.hpp"

namespace fastmedian::detail {

// Expects validated arguments; dst is the box of src's output at `origin`.
void median2d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                  Border border, double cval, const Origin& origin);

}  // namespace fastmedian::detail
