// Exact 3D median filter over a volume: the planes of a view are its z slices.
//
// Semantics are those of median2d (the element of rank floor((n-1)/2) of the window's values,
// float order -Inf < ... < +Inf < NaN, NaN results written as 0x7FC00000), with the border
// mode applied along x, y and z alike, as scipy.ndimage.median_filter does with a 3D footprint.
// The ellipsoid of radii (rx, ry, rz) is ImageJ's Filters3D mask ("3D Median"): the voxels
// (dx, dy, dz) with dx^2/rx^2 + dy^2/ry^2 + dz^2/rz^2 <= 1, an axis of radius 0 contributing
// only offset 0 along it. ImageJ shrinks the window at the volume's border; here the border
// mode decides what lies outside (replicate by default).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

// A 3D window centred on the output voxel.
struct Window3D {
    enum class Shape { box, ellipsoid };
    Shape shape = Shape::box;
    int size_x = 3, size_y = 3, size_z = 3;            // box: odd sides, 1..kMaxSize
    double radius_x = 1, radius_y = 1, radius_z = 1;   // ellipsoid: radii, 0..kMaxRadius

    static constexpr int kMaxSize = 255;
    static constexpr double kMaxRadius = 127.0;
    // Windows of more voxels than this are refused (the per-voxel work grows with them).
    static constexpr std::int64_t kMaxCount = 1 << 20;

    static Window3D box(int k) { return box(k, k, k); }
    static Window3D box(int kx, int ky, int kz) {
        Window3D w;
        w.shape = Shape::box;
        w.size_x = kx;
        w.size_y = ky;
        w.size_z = kz;
        return w;
    }
    static Window3D ellipsoid(double r) { return ellipsoid(r, r, r); }
    static Window3D ellipsoid(double rx, double ry, double rz) {
        Window3D w;
        w.shape = Shape::ellipsoid;
        w.radius_x = rx;
        w.radius_y = ry;
        w.radius_z = rz;
        return w;
    }
};

// The window as centred runs: for plane dz (-radius_z..radius_z) and row dy
// (-radius_y..radius_y), half_width[(dz + radius_z) * (2 radius_y + 1) + dy + radius_y] is h for
// the run dx in [-h, h], or -1 for a row with no voxels; radius_x is the largest h.
struct WindowRuns3D {
    int radius_z = 0, radius_y = 0, radius_x = 0;
    std::vector<int> half_width;
    std::int64_t count = 0;  // voxels in the window
};
// Throws Error naming the parameter for an invalid window.
WindowRuns3D window3d_runs(const Window3D& window);

struct Median3DOptions {
    Window3D window = Window3D::box(3);
    Border border = Border::replicate;
    double cval = 0.0;                     // the outside value for Border::constant
    Backend backend = Backend::automatic;  // automatic: the first CUDA device if any, else CPU
    int device = 0;                        // CUDA device index
    std::optional<Origin> origin;          // set: dst is a box of the output (options.hpp)
    // For views in Memory::cuda only: a cudaStream_t to enqueue the work on; the call then
    // returns without waiting. nullptr: the call returns once the output is written.
    void* cuda_stream = nullptr;
    // Runs the sort-based CPU reference instead (host views only): for tests.
    bool reference = false;
};

// Filters the volume `src` (width x height x planes) into `dst` (same type and memory, the same
// size, or a box of the output where options.origin is set; they may not overlap). Throws Error
// for bad arguments (naming the parameter) and backend failures; `src` is never written.
RunInfo median3d(const ConstImageView& src, const ImageView& dst, const Median3DOptions& options);

}  // namespace fastmedian
