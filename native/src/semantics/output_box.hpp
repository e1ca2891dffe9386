// A box of a filter's output (Origin): which part of the source its windows read. The CUDA
// backend's kernels write whole views, so it filters that part into a temporary and copies the
// box out; the CPU backend reads the box's windows from src directly.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// Whether dst is all of src's output (the default origin and src's size).
bool whole_output(const ConstImageView& src, const ImageView& dst, const Origin& origin);

// The part of src (a view of it) that the outputs of dst at `origin` read through windows that
// reach radius_x, radius_y and radius_z pixels, and the box's origin in that part: src cut to
// the box grown by the radii (all of an axis where a wrapping border carries the window round
// to its far end). Every output of the box is the same filtered in the part as in src: along
// each axis the part ends either at src's own edge or a radius beyond the box.
struct SourcePart {
    ConstImageView view;
    Origin origin;
};
SourcePart source_part(const ConstImageView& src, const ImageView& dst, const Origin& origin,
                       int radius_x, int radius_y, int radius_z, Border border);

}  // namespace fastmedian::detail
