// The public window queries: a validated window's runs, as every backend sees them.
#include "core/validate.hpp"
#include "fastmedian/median3d.hpp"
#include "fastmedian/options.hpp"
#include "semantics/footprint.hpp"
#include "semantics/footprint3d.hpp"

namespace fastmedian {

std::vector<int> window_half_widths(const Window& window) {
    detail::validate_window(window);
    return detail::make_footprint(window).half_width;
}

WindowRuns3D window3d_runs(const Window3D& window) {
    detail::validate_window3d(window);
    return detail::make_footprint3d(window);
}

}  // namespace fastmedian
