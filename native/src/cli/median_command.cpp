// fastmedian median IN.tif OUT.tif (--size K | --radius R) [--3d [--zsize KZ | --zradius RZ]]
//                   [--border B] [--cval V] [--backend B] [--devices LIST] [--max-memory BYTES]
#include <cmath>
#include <string>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "filter_args.hpp"
#include "file_pairs.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

namespace {

const std::set<std::string> kValued = {"--size", "--radius", "--zsize", "--zradius",
                                       "--border", "--cval", "--backend", "--devices",
                                       "--max-memory", "--out-dir"};

// `w`, or a UsageError naming `options` when the library refuses it (by now, only for holding
// more voxels than it takes: each side or radius was checked against its own limit).
Window3D within_voxel_limit(const Window3D& w, const std::string& options) {
    try {
        (void)window3d_runs(w);
    } catch (const Error& e) {
        throw UsageError(options + " with --3d: " + e.what() +
                         " (at most a box of 101 x 101 x 101, an ellipsoid of radius 63)");
    }
    return w;
}

// The 3D window: the 2D window's side or radius in x and y, --zsize / --zradius in z (the
// same as x and y when not given).
Window3D parse_window3d(const Args& a, const Window& plane) {
    const std::string* zsize = a.get("--zsize");
    const std::string* zradius = a.get("--zradius");
    if (plane.shape == Window::Shape::square) {
        if (zradius != nullptr) throw UsageError("--zradius applies to --radius, not --size");
        int kz = plane.size;
        if (zsize != nullptr &&
            (!parse_int(*zsize, kz) || kz < 1 || kz % 2 == 0 || kz > Window3D::kMaxSize))
            throw UsageError("--zsize must be an odd integer from 1 to " +
                             std::to_string(Window3D::kMaxSize) + ", got " + shown(*zsize));
        if (plane.size > Window3D::kMaxSize)
            throw UsageError("--size must be at most " + std::to_string(Window3D::kMaxSize) +
                             " with --3d, got " + std::to_string(plane.size));
        return within_voxel_limit(Window3D::box(plane.size, plane.size, kz), "--size and --zsize");
    }
    if (zsize != nullptr) throw UsageError("--zsize applies to --size, not --radius");
    double rz = plane.radius;
    if (zradius != nullptr && (!parse_double(*zradius, rz) || !std::isfinite(rz) || rz < 0.0 ||
                               rz > Window3D::kMaxRadius))
        throw UsageError("--zradius must be a number from 0 to " +
                         std::to_string(static_cast<int>(Window3D::kMaxRadius)) + ", got " +
                         shown(*zradius));
    if (plane.radius > Window3D::kMaxRadius)
        throw UsageError("--radius must be at most " +
                         std::to_string(static_cast<int>(Window3D::kMaxRadius)) +
                         " with --3d, got " + format_number("%g", plane.radius));
    return within_voxel_limit(Window3D::ellipsoid(plane.radius, plane.radius, rz),
                              "--radius and --zradius");
}

}  // namespace

int median_command(const std::vector<std::string>& args) {
    bool volume = false, quiet = false;
    const Args a(take_flags(args, kValued, {{"--3d", &volume}, {"--quiet", &quiet}}), kValued);
    const std::vector<FilePair> files = file_pairs(a, "median");
    const Window plane = parse_window(a, "median");
    if (!volume && (a.get("--zsize") != nullptr || a.get("--zradius") != nullptr))
        throw UsageError("--zsize and --zradius apply only with --3d");
    Border border = Border::replicate;
    double cval = 0.0;
    parse_border_and_cval(a, border, cval);
    Backend backend = Backend::automatic;
    if (const std::string* b = a.get("--backend")) backend = parse_backend(*b, "--backend");
    const std::uint64_t max_memory = parse_max_memory(a);
    if (volume) {
        if (a.get("--devices") != nullptr) throw UsageError("--devices applies to the 2D median, not --3d");
        Median3DOptions o;
        o.window = parse_window3d(a, plane);
        o.border = border;
        o.cval = cval;
        o.backend = backend;
        return run_each(files, [&](const FilePair& p) {
            const FilterResult r = filter_file(p.in, p.out, o, max_memory, !quiet);
            if (!quiet) std::cout << summary(o, r, p.out) << "\n";
        });
    }
    MedianOptions o;
    o.window = plane;
    o.border = border;
    o.cval = cval;
    o.backend = backend;
    if (const std::string* d = a.get("--devices")) o.devices = parse_devices(*d, o.backend);
    return run_each(files, [&](const FilePair& p) {
        const FilterResult r = filter_file(p.in, p.out, o, max_memory, !quiet);
        if (!quiet) std::cout << summary(o, r, p.out) << "\n";
    });
}

}  // namespace fastmedian::cli
