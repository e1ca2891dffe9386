#include "cuda/median_dispatch.hpp"

#include <algorithm>

#include "median_bisect.cuh"
#include "median_column_network.cuh"
#include "median_histogram.cuh"
#include "median_network.cuh"
#include "median_tile_select.cuh"
#include "median_tiled.cuh"

namespace fastmedian::detail {

namespace {

kernels::RunsWindow runs_window(const Footprint& fp) {
    kernels::RunsWindow w{};
    w.radius_y = fp.radius_y;
    w.rank = static_cast<int>(fp.rank());
    std::copy(fp.half_width.begin(), fp.half_width.end(), w.half_width);
    return w;
}

// The window by columns: column dx reaches as far up and down as the rows whose runs cover it.
kernels::ColumnsWindow columns_window(const Footprint& fp) {
    kernels::ColumnsWindow w{};
    w.radius_x = fp.radius_x;
    w.rank = static_cast<int>(fp.rank());
    for (int dx = -fp.radius_x; dx <= fp.radius_x; ++dx) {
        int hh = 0;
        for (int dy = -fp.radius_y; dy <= fp.radius_y; ++dy)
            if (fp.half_width[dy + fp.radius_y] >= (dx < 0 ? -dx : dx)) hh = dy < 0 ? -dy : dy;
        w.half_height[dx + fp.radius_x] = hh;
    }
    return w;
}

}  // namespace

cudaError_t launch_median(const kernels::PlanesArgs& planes, const Footprint& fp, PixelType type,
                          cudaStream_t stream) {
    const int k = 2 * fp.radius_y + 1;
    // Squares 3 to 21: hierarchical tiling, a tile of outputs per thread.
    if (fp.square() && kernels::tiled::serves_square(k, planes.height))
        return kernels::tiled::launch_square(k, type, planes, stream);
    // Circles to radius 3.5: networks over sorted columns (shared with the CPU).
    const int* hw = fp.half_width.data();
    const int rows = static_cast<int>(fp.half_width.size());
    if (kernels::median_column_network_serves(hw, rows, planes.height)) {
        switch (type) {
            case PixelType::u8:
                return kernels::launch_median_column_network_u8(hw, rows, planes, stream);
            case PixelType::u16:
                return kernels::launch_median_column_network_u16(hw, rows, planes, stream);
            case PixelType::f32:
                return kernels::launch_median_column_network_f32(hw, rows, planes, stream);
        }
    }
    // ImageJ circles of radius 4 to 6: whole-window networks.
    const int mask = kernels::median_network_mask(hw, rows, planes.height);
    if (mask >= 0) {
        switch (type) {
            case PixelType::u8: return kernels::launch_median_network_u8(mask, planes, stream);
            case PixelType::u16: return kernels::launch_median_network_u16(mask, planes, stream);
            case PixelType::f32: return kernels::launch_median_network_f32(mask, planes, stream);
        }
    }
    // Other windows up to radius 24: radix select over a staged tile.
    const kernels::RunsWindow w = runs_window(fp);
    if (kernels::tile_select_fits(fp.radius_x, fp.radius_y, planes.height)) {
        switch (type) {
            case PixelType::u8: return kernels::launch_median_tile_select_u8(planes, w, stream);
            case PixelType::u16: return kernels::launch_median_tile_select_u16(planes, w, stream);
            case PixelType::f32: return kernels::launch_median_tile_select_f32(planes, w, stream);
        }
    }
    // Larger windows on 8- and 16-bit images: sliding histograms.
    if (type != PixelType::f32 && fp.count <= kernels::kHistogramMaxCount) {
        const kernels::ColumnsWindow cw = columns_window(fp);
        return type == PixelType::u8 ? kernels::launch_median_histogram_u8(planes, cw, stream)
                                     : kernels::launch_median_histogram_u16(planes, cw, stream);
    }
    switch (type) {
        case PixelType::u8: return kernels::launch_median_bisect_u8(planes, w, stream);
        case PixelType::u16: return kernels::launch_median_bisect_u16(planes, w, stream);
        case PixelType::f32: return kernels::launch_median_bisect_f32(planes, w, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::detail
