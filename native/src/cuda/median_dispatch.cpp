#include "cuda/median_dispatch.hpp"

#include <algorithm>

#include "median3x3_stream.cuh"
#include "median_bisect.cuh"
#include "median_column_network.cuh"
#include "median_histogram.cuh"
#include "median_network.cuh"
#include "median_ranks.cuh"
#include "median_stream.cuh"
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

// Squares the tiled networks serve (H100, 4096^2): u8 to 15, u16 and f32 all of theirs, to 21.
// At 21x21 the tiled network (u16 10.05 Gpix/s, the same for u8) loses to the sliding histograms'
// 17.0 for u8 on the shared images (docs/notebook/gpu-median-h100-2026-11-26-groups.md). u16
// 21x21 stays tiled: 10.05 on any data (5.7 before the octets, 4.1-6.0 before the sorted columns),
// where the histograms' ranks ran 5.2 on the shared images but 0.22-0.48 on noise and random
// walks, whose medians keep leaving their coarse bin (docs/notebook/pipeline-h100-2026-11-24-
// median3d.md); f32 9.4 on whole numbers and 4.6 on fractions against 1.62.
bool tiled_serves(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes) {
    const int k = 2 * fp.radius_y + 1;
    return fp.square() && kernels::tiled::serves_square(k, planes.height) && (type != PixelType::u8 || k <= 15);
}

// 5x5 and 7x7 squares the streaming kernels serve, sharing sorted columns between lanes: rows
// of whole words, wide enough that a warp's 120 columns fit them well and the grid is several
// waves. H100, streaming / tiled at 2048^2, 2560^2, 2896^2, 4096^2
// (docs/notebook/gpu-median-h100-2026-11-26-stream.md):
//   5x5: u8 0.91, 1.01, 1.12, 1.20; u16 0.92, 1.01, 1.18, 1.20; f32 of whole numbers 1.38,
//        1.38, 1.47, 1.48 and with fractions 1.04, 1.05, 1.10, 1.20;
//   7x7, against the tiled networks of sorted columns, at 2048^2, 2560^2, 3072^2, 3584^2, 4096^2
//        (docs/notebook/gpu-median-h100-2026-11-26-sorted-columns.md): u8 0.65, 0.89, 0.93, 1.00,
//        1.02; u16 0.70, 0.95, 0.91, 0.94, 1.01; f32 of whole numbers 1.05, 1.26, 1.17, 1.25, 1.28
//        and with fractions 0.70, 0.90, 0.92, 0.98, 1.02.
// Since the edge lanes and bottom strips first (docs/notebook/gpu-median-h100-2026-11-27-edges.md;
// streaming / tiled at 2048^2, 2560^2, 3072^2, 3584^2): 5x5 u8 1.21, 1.33, 1.00, 1.00 (both
// streaming from 2880 before), u16 1.13, 1.30; 7x7 u8 0.64, 1.03, 1.15, 1.18, u16 0.65, 1.01,
// 1.09, 1.15, f32 of whole numbers 0.84, 1.10, 1.17 and with fractions 0.63, 0.82, 0.96. At
// 2048^2 the 7x7 grid (strips of 16 rows, 10 blocks an SM) is less than one wave.
bool stream_serves(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes) {
    if (!fp.square() || !kernels::stream::serves(type, planes)) return false;
    const bool f32 = type == PixelType::f32;
    switch (fp.radius_y) {
        case 2: return planes.width >= 2048;
        case 3: return planes.width >= (f32 ? 3584 : 2560);
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

// Which kernel family serves a window, type and plane size: one choice for the launch and for
// the scratch the plane pipeline sets aside for it.
enum class Path { stream3, stream, tiled, column_network, network, histogram_u8, ranked, histogram_u16, bisect };

Path median_path(const Footprint& fp, PixelType type, const kernels::PlanesArgs& planes) {
    // u8 3x3 on 8-byte aligned rows: streaming down strips in registers, faster than the tiled
    // networks at 2048^2 to 8192^2 (+4%, +2%, +14% on the H200 with 4-byte words; the 8-byte
    // lanes since, H100: 730-748 / 1175-1191 / 1243 Gpix/s).
    if (fp.square() && fp.radius_y == 1 && type == PixelType::u8 && kernels::stream3::serves(planes))
        return Path::stream3;
    // 5x5 and 7x7 on rows of whole words (four pixels) wide enough: streaming down strips.
    if (stream_serves(fp, type, planes)) return Path::stream;
    // Squares 3 to 21: hierarchical tiling, a tile of outputs per thread.
    if (tiled_serves(fp, type, planes)) return Path::tiled;
    const int* hw = fp.half_width.data();
    const int rows = static_cast<int>(fp.half_width.size());
    // Circles to radius 3.5: networks over sorted columns (shared with the CPU).
    if (kernels::median_column_network_serves(hw, rows, planes.height)) return Path::column_network;
    // ImageJ circles of radius 4 to 6: whole-window networks.
    if (kernels::median_network_mask(hw, rows, planes.height) >= 0) return Path::network;
    // Other windows: sliding histograms, down the columns; u16 and f32 through dense ranks.
    if (histogram_serves(fp)) {
        if (type == PixelType::u8) return Path::histogram_u8;
        if (ranks_fit(planes)) return Path::ranked;
        if (type == PixelType::u16) return Path::histogram_u16;
    }
    // Windows of more than 65535 pixels, and f32 planes too large for ranks: bisection.
    return Path::bisect;
}

}  // namespace

std::int64_t median_scratch_row_bytes(const Footprint& fp, PixelType type, int width) {
    kernels::PlanesArgs row{};
    row.width = width;
    row.height = 1;
    row.planes = 1;
    const Path path = median_path(fp, type, row);
    // The tiled f32 marks: a byte per block of at least kWholeMarkH rows, so a row's share is below this.
    if (path == Path::tiled && kernels::tiled::takes_whole_marks(2 * fp.radius_y + 1, type))
        return static_cast<std::int64_t>(kernels::tiled::whole_marks_bytes(row));
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
