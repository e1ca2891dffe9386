// The CPU reference median: gather each window, select the middle by std::nth_element on order
// keys. Simple and obviously right; every fast path is tested against it.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"
#include "semantics/footprint.hpp"

namespace fastmedian::detail {

// Expects validated arguments; dst is the box of src's output at `origin`.
void median2d_reference(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                        Border border, double cval, const Origin& origin);

}  // namespace fastmedian::detail
