#include "semantics/footprint.hpp"

#include <cmath>

namespace fastmedian::detail {

namespace {

// ImageJ's RankFilters.makeLineRadii, including its two historical radius adjustments, so that
// "radius=R" selects exactly the pixels ImageJ's Median uses.
Footprint imagej_circle(double radius) {
    if (radius >= 1.5 && radius < 1.75) radius = 1.75;
    else if (radius >= 2.5 && radius < 2.85) radius = 2.85;
    const int r2 = static_cast<int>(radius * radius) + 1;
    const int k_radius = static_cast<int>(std::sqrt(r2 + 1e-10));
    Footprint f;
    f.radius_y = k_radius;
    f.radius_x = k_radius;
    f.half_width.assign(2 * k_radius + 1, 0);
    f.half_width[k_radius] = k_radius;
    for (int y = 1; y <= k_radius; ++y) {
        const int dx = static_cast<int>(std::sqrt(r2 - y * y + 1e-10));
        f.half_width[k_radius - y] = dx;
        f.half_width[k_radius + y] = dx;
    }
    return f;
}

}  // namespace

Footprint make_footprint(const Window& window) {
    Footprint f;
    if (window.shape == Window::Shape::circle) {
        f = imagej_circle(window.radius);
    } else {
        const int r = window.size / 2;
        f.radius_y = r;
        f.radius_x = r;
        f.half_width.assign(2 * r + 1, r);
    }
    for (int w : f.half_width) f.count += 2 * w + 1;
    return f;
}

}  // namespace fastmedian::detail
