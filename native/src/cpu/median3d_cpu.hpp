// The CPU 3D median: for each output row, the window's source rows are padded (border_index.cuh)
// and turned into order keys (order_key.cuh) once; each voxel's window is then gathered from
// them and its middle selected with std::nth_element. Rows run on all cores; with
// `threads` = 1 it is the reference that Median3DOptions::reference runs.
#pragma once

#include "core/footprint3d.hpp"
#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// Expects validated arguments. threads = 0: all cores.
void median3d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                  Border border, double cval, int threads);

}  // namespace fastmedian::detail
