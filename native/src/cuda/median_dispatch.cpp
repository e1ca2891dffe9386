#include "cuda/median_dispatch.hpp"

#include <algorithm>
#include <vector>

#include "median_3x3.cuh"
#include "median_bisect.cuh"
#include "median_tile_select.cuh"

namespace fastmedian::detail {

namespace {

kernels::RunsWindow runs_window(const Footprint& fp) {
    kernels::RunsWindow w{};
    w.radius_y = fp.radius_y;
    w.rank = static_cast<int>(fp.rank());
    std::copy(fp.half_width.begin(), fp.half_width.end(), w.half_width);
    return w;
}

}  // namespace

cudaError_t launch_median(const kernels::PlanesArgs& planes, const Footprint& fp, PixelType type,
                          cudaStream_t stream) {
    // 3x3 (square k=3 and ImageJ's radius 1): the sorted-triples kernel.
    if (fp.radius_y == 1 && fp.half_width == std::vector<int>{1, 1, 1} &&
        kernels::median_3x3_fits(planes.height)) {
        switch (type) {
            case PixelType::u8: return kernels::launch_median_3x3_u8(planes, stream);
            case PixelType::u16: return kernels::launch_median_3x3_u16(planes, stream);
            case PixelType::f32: return kernels::launch_median_3x3_f32(planes, stream);
        }
    }
    const kernels::RunsWindow w = runs_window(fp);
    if (kernels::tile_select_fits(fp.radius_x, fp.radius_y, planes.height)) {
        switch (type) {
            case PixelType::u8: return kernels::launch_median_tile_select_u8(planes, w, stream);
            case PixelType::u16: return kernels::launch_median_tile_select_u16(planes, w, stream);
            case PixelType::f32: return kernels::launch_median_tile_select_f32(planes, w, stream);
        }
    }
    switch (type) {
        case PixelType::u8: return kernels::launch_median_bisect_u8(planes, w, stream);
        case PixelType::u16: return kernels::launch_median_bisect_u16(planes, w, stream);
        case PixelType::f32: return kernels::launch_median_bisect_f32(planes, w, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::detail
