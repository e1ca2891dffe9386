// The CPU 3D median. Windows with a generated network (boxes 3 and 5, ImageJ ellipsoids of radius 1
// and 2) run it vectorised across neighbouring voxels (isa_kernels.hpp). Others, and the reference
// that Median3DOptions::reference runs, sort: for each output row, the window's source rows are
// padded (semantics/border_index.hpp) and turned into order keys (semantics/order_key.hpp) once;
// each voxel's window is then gathered from them and its middle selected with std::nth_element.
// Both run on all cores; the reference on one thread.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"
#include "semantics/footprint3d.hpp"

namespace fastmedian::detail {

// Expects validated arguments; dst is the box of src's output at `origin`. reference: the sort
// on one thread, whatever the window.
void median3d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                  Border border, double cval, const Origin& origin, bool reference);

}  // namespace fastmedian::detail
