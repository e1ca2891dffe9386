#include "cuda/median_dispatch.hpp"

#include <algorithm>

#include "gpu_policy.hpp"
#include "median3x3_stream.cuh"
#include "median_bisect.cuh"
#include "median_column_network.cuh"
#include "median_histogram.cuh"
#include "median_network.cuh"
#include "median_ranks.cuh"
#include "median_stream.cuh"
#include "median_tile_ranks.cuh"
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

// Squares the tiled networks serve where their blocks fit the GPU's shared memory: u8 to the
// policy's tiled_max_square_u8 (15 on the H100), u16 and f32 all of theirs, to 21. At 21x21 the
// tiled network loses for u8 to the sliding histograms on the shared images
// (docs/notebook/gpu-median-h100-2026-11-26-groups.md). u16 21x21 stays tiled: the networks take
// the same time on any data, where the histograms' ranks, a little faster on the shared images,
// are many times slower on noise and random walks, whose medians keep leaving their coarse bin
// (docs/notebook/pipeline-h100-2026-11-24-median3d.md); f32 21x21 is faster tiled on whole
// numbers and on fractions alike. Current figures: bench/RESULTS.md.
bool tiled_serves(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes,
                  const kernels::MedianPolicy& policy) {
    const int k = 2 * fp.radius_y + 1;
    return fp.square() && (type != PixelType::u8 || k <= policy.tiled_max_square_u8) &&
           kernels::tiled::serves_square(k, type, planes.height);
}

// 5x5 and 7x7 squares the streaming kernels serve, sharing sorted columns between lanes: rows
// of whole words, wide enough that a warp's 120 columns fit them well and the grid is several
// waves. The widths are the policy's (kernels/gpu_policies.cpp); the H100's are where streaming
// measured faster than the tiled kernels, by type and image width
// (docs/notebook/gpu-median-h100-2026-11-26-stream.md, and for 7x7 against the
// tiled networks of sorted columns docs/notebook/gpu-median-h100-2026-11-26-sorted-columns.md);
// measured again since the edge lanes and bottom strips first
// (docs/notebook/gpu-median-h100-2026-11-27-edges.md, "Narrower images"). f32 7x7 keeps the
// wider threshold because images with fractions lose below it. At 2048^2 the 7x7 grid (strips
// of 16 rows, 10 blocks an SM) is less than one wave.
bool stream_serves(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes,
                   const kernels::MedianPolicy& policy) {
    if (!fp.square() || !kernels::stream::serves(type, planes)) return false;
    const bool f32 = type == PixelType::f32;
    switch (fp.radius_y) {
        case 2: return planes.width >= policy.stream5_min_width;
        case 3: return planes.width >= (f32 ? policy.stream7_min_width_f32 : policy.stream7_min_width);
        default: return false;
    }
}

// The sliding histograms' counts are 16-bit; u16 and f32 keys go through dense ranks where a
// plane's keys fit the ranks' scratch (CUB counts them in int).
bool histogram_serves(const Footprint& fp) { return fp.count <= kernels::kHistogramMaxCount; }
bool ranks_fit(const kernels::PlanesArgs& planes) {
    return std::int64_t{planes.width} * planes.height < std::int64_t{1} << 30;
}

std::size_t ranked_scratch_bytes(PixelType type, int width, int height) {
    return type == PixelType::f32 ? kernels::ranked_scratch_bytes_f32(width, height)
                                  : kernels::ranked_scratch_bytes_u16(width, height);
}

// Wide windows (the GPU policy's dense_ranks): the tile ranks, or the dense ranks where the
// plane has few values (and f32, whole numbers; chosen on the device: median_ranks.cuh,
// launch_median_ranked_or_tiles). Narrower windows took the tile ranks on every kind of data
// (docs/notebook/tile-ranks-h200-2026-11-30.md).
bool ranks_or_tiles(const kernels::ColumnsWindow& w, const kernels::PlanesArgs& planes) {
    return kernels::most_dense_values(w) > 0 && ranks_fit(planes);
}

// Which kernel family serves a window, type and plane size: one choice for the launch and for
// the scratch the plane pipeline sets aside for it.
enum class Path {
    stream3, stream, tiled, column_network, network, histogram_u8, tile_ranks, ranked, histogram_u16, bisect
};

Path median_path(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes) {
    const kernels::MedianPolicy& policy = kernels::active_policy().median;
    // u8 3x3 on 8-byte aligned rows: streaming down strips in registers, faster than the tiled
    // networks at 2048^2 to 8192^2 (docs/notebook/gpu-median-h200-2026-11-26-stream3.md; the
    // 8-byte lanes since: docs/notebook/gpu-median-h100-2026-11-27-lanes8.md).
    if (fp.square() && fp.radius_y == 1 && type == PixelType::u8 && kernels::stream3::serves(planes))
        return Path::stream3;
    // 5x5 and 7x7 on rows of whole words (four pixels) wide enough: streaming down strips.
    if (stream_serves(fp, type, planes, policy)) return Path::stream;
    // Squares 3 to 21: hierarchical tiling, a tile of outputs per thread.
    if (tiled_serves(fp, type, planes, policy)) return Path::tiled;
    const int* hw = fp.half_width.data();
    const int rows = static_cast<int>(fp.half_width.size());
    // Circles to radius 3.5: networks over sorted columns (shared with the CPU).
    if (kernels::median_column_network_serves(hw, rows, planes.height)) return Path::column_network;
    // ImageJ circles of radius 4 to 6: whole-window networks.
    if (kernels::median_network_mask(hw, rows, planes.height) >= 0) return Path::network;
    // Other windows: u8, sliding histograms down the columns; u16 and f32, tile ranks where the
    // window fits a tile, else sliding histograms of the plane's dense ranks.
    if (histogram_serves(fp)) {
        if (type == PixelType::u8) return Path::histogram_u8;
        if (kernels::tile_ranks_serve(columns_window(fp))) return Path::tile_ranks;
        if (ranks_fit(planes)) return Path::ranked;
        if (type == PixelType::u16) return Path::histogram_u16;
    }
    // Windows of more than 65535 pixels, and f32 planes too large for ranks: bisection.
    return Path::bisect;
}

}  // namespace

const char* median_kernel_family(const Footprint& fp, PixelType type, int width, int height) {
    kernels::PlanesArgs planes{};
    planes.width = width;
    planes.height = height;
    planes.planes = 1;
    // Rows as a pitched allocation lays them out (512-byte aligned).
    planes.src_pitch = planes.dst_pitch = (static_cast<std::int64_t>(width) * pixel_size(type) + 511) / 512 * 512;
    switch (median_path(fp, type, planes)) {
        case Path::stream3: return "stream3";
        case Path::stream: return "stream";
        case Path::tiled: return "tiled";
        case Path::column_network: return "column_network";
        case Path::network: return "network";
        case Path::histogram_u8: return "histogram_u8";
        case Path::tile_ranks: return "tile_ranks";
        case Path::ranked: return "ranked";
        case Path::histogram_u16: return "histogram_u16";
        case Path::bisect: return "bisect";
    }
    return "";
}

std::int64_t median_scratch_row_bytes(const Footprint& fp, PixelType type, int width) {
    kernels::PlanesArgs row{};
    row.width = width;
    row.height = 1;
    row.planes = 1;
    const Path path = median_path(fp, type, row);
    // The tiled f32 marks: a byte per block of at least kWholeMarkH rows, so a row's share is below this.
    if (path == Path::tiled && kernels::tiled::takes_whole_marks(2 * fp.radius_y + 1, type))
        return static_cast<std::int64_t>(kernels::tiled::whole_marks_bytes(row));
    if (path == Path::tile_ranks) {
        const kernels::ColumnsWindow cw = columns_window(fp);
        return static_cast<std::int64_t>(ranks_or_tiles(cw, row)
                                             ? kernels::ranked_or_tiles_row_bytes(pixel_size(type), cw, width)
                                             : kernels::tile_ranks_row_bytes(pixel_size(type), cw, width));
    }
    if (path != Path::ranked) return 0;
    return static_cast<std::int64_t>(ranked_scratch_bytes(type, width, 2) - ranked_scratch_bytes(type, width, 1));
}

cudaError_t launch_median(const kernels::PlanesArgs& planes, const Footprint& fp, PixelType type,
                          cudaStream_t stream, ScratchMemory& scratch) {
    const int* hw = fp.half_width.data();
    const int rows = static_cast<int>(fp.half_width.size());
    const kernels::RunsWindow w = runs_window(fp);
    switch (median_path(fp, type, planes)) {
        case Path::stream3: return kernels::stream3::launch(planes, stream);
        case Path::stream:
            return fp.radius_y == 2 ? kernels::stream::launch_square5(type, planes, stream)
                                    : kernels::stream::launch_square7(type, planes, stream);
        case Path::tiled: {
            const int k = 2 * fp.radius_y + 1;
            std::uint8_t* marks = kernels::tiled::takes_whole_marks(k, type)
                                      ? static_cast<std::uint8_t*>(scratch.get(kernels::tiled::whole_marks_bytes(planes), stream))
                                      : nullptr;
            return kernels::tiled::launch_square(k, type, planes, marks, stream);
        }
        case Path::column_network:
            switch (type) {
                case PixelType::u8: return kernels::launch_median_column_network_u8(hw, rows, planes, stream);
                case PixelType::u16: return kernels::launch_median_column_network_u16(hw, rows, planes, stream);
                case PixelType::f32: return kernels::launch_median_column_network_f32(hw, rows, planes, stream);
            }
            break;
        case Path::network: {
            const int mask = kernels::median_network_mask(hw, rows, planes.height);
            switch (type) {
                case PixelType::u8: return kernels::launch_median_network_u8(mask, planes, stream);
                case PixelType::u16: return kernels::launch_median_network_u16(mask, planes, stream);
                case PixelType::f32: return kernels::launch_median_network_f32(mask, planes, stream);
            }
            break;
        }
        case Path::histogram_u8: return kernels::launch_median_histogram_u8(planes, columns_window(fp), stream);
        case Path::tile_ranks: {
            const kernels::ColumnsWindow cw = columns_window(fp);
            const int width = planes.width, height = planes.height;
            if (ranks_or_tiles(cw, planes)) {
                const std::size_t bytes = kernels::ranked_or_tiles_scratch_bytes(pixel_size(type), cw, width, height);
                void* memory = scratch.get(bytes, stream);
                return type == PixelType::u16 ? kernels::launch_median_ranked_or_tiles_u16(planes, cw, memory, stream)
                                              : kernels::launch_median_ranked_or_tiles_f32(planes, cw, memory, stream);
            }
            void* memory = scratch.get(kernels::tile_ranks_scratch_bytes(pixel_size(type), cw, width, height), stream);
            return type == PixelType::u16 ? kernels::launch_median_tile_ranks_u16(planes, cw, memory, stream)
                                          : kernels::launch_median_tile_ranks_f32(planes, cw, memory, stream);
        }
        case Path::ranked: {
            void* memory = scratch.get(ranked_scratch_bytes(type, planes.width, planes.height), stream);
            return type == PixelType::u16
                       ? kernels::launch_median_ranked_u16(planes, columns_window(fp), memory, stream)
                       : kernels::launch_median_ranked_f32(planes, columns_window(fp), w, memory, stream);
        }
        case Path::histogram_u16: return kernels::launch_median_histogram_u16(planes, columns_window(fp), stream);
        case Path::bisect:
            switch (type) {
                case PixelType::u8: return kernels::launch_median_bisect_u8(planes, w, stream);
                case PixelType::u16: return kernels::launch_median_bisect_u16(planes, w, stream);
                case PixelType::f32: return kernels::launch_median_bisect_f32(planes, w, stream);
            }
            break;
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::detail
