// A 3D window as rows of centred runs (fastmedian::WindowRuns3D), the form every 3D backend
// walks: boxes and ImageJ's ellipsoids alike.
#pragma once

#include <optional>

#include "fastmedian/median3d.hpp"
#include "semantics/footprint.hpp"

namespace fastmedian::detail {

struct Footprint3D : WindowRuns3D {
    int rows() const { return 2 * radius_y + 1; }
    // The half width of row dy in plane dz, -1 for an empty row.
    int half(int dz, int dy) const { return half_width[(dz + radius_z) * rows() + dy + radius_y]; }
    std::int64_t rank() const { return (count - 1) / 2; }
};

// Expects a validated window.
Footprint3D make_footprint3d(const Window3D& window);

// A window one plane deep (z radius 0, no empty row) as the 2D window it is on every plane, for
// the 2D median's paths: the same bits (the z border never applies, the x and y borders are the
// same), and far faster than the 3D generic paths. Empty otherwise.
std::optional<Footprint> planar_footprint(const Footprint3D& fp);

}  // namespace fastmedian::detail
