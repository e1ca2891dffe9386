// CPU 3D median throughput: our median3d on volumes of every kind of data (data_kinds.hpp: the
// shared bead stack mirror-tiled, f32 with fractions, full-range noise, f32 with every value
// distinct).
//
//   fastmedian_bench_median3d_cpu [--images bench/gpu/images] [--size 256x256x64] [--runs 7]
//                                 [--data all|images,flat,noise] [--windows box7,ellipsoid3,...]
//
// Windows: boxes 3x3x3, 5x5x5 and 7x7x7, ImageJ ellipsoids of radius 1, 2 and 3, the
// anisotropic windows of stacks with a coarser z step (boxes 5x5x3 and 7x7x3, ellipsoids 2,2,1,
// 3,3,1 and 3,3,2) or a finer one (boxes 3x3x5 and 7x7x5, ellipsoid 2,2,3), and windows one
// plane deep (box 5x5x1, ellipsoid 2,2,0), replicate border, on all cores (run under
// `taskset -c 0` for one core). Each figure is the median of `runs` timed calls after one
// warm-up call, in output Mvox/s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "data_kinds.hpp"
#include "median_seconds.hpp"

namespace fm = fastmedian;

namespace {

struct Args {
    std::string images = "bench/gpu/images", data = "all";
    std::string windows;  // ",name,...,": only these (all when empty)
    std::int64_t width = 256, height = 256, depth = 64;
    int runs = 7;
};

Args parse(int argc, char** argv) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--size") {
            if (std::sscanf(argv[i + 1], "%ldx%ldx%ld", &a.width, &a.height, &a.depth) != 3)
                throw std::runtime_error("--size takes WxHxD");
        } else if (key == "--runs") {
            a.runs = std::stoi(argv[i + 1]);
        } else if (key == "--images") {
            a.images = argv[i + 1];
        } else if (key == "--data") {
            a.data = argv[i + 1];
        } else if (key == "--windows") {
            a.windows = "," + std::string(argv[i + 1]) + ",";
        } else {
            throw std::runtime_error("unknown option " + key);
        }
    }
    return a;
}

}  // namespace

int main(int argc, char** argv) try {
    const Args args = parse(argc, argv);
    std::printf("CPU 3D median, %ldx%ldx%ld volumes, data %s, median of %d runs, %u hardware threads\n",
                args.width, args.height, args.depth, args.data.c_str(), args.runs,
                std::thread::hardware_concurrency());
    const struct {
        const char* name;
        fm::Window3D window;
    } windows[] = {{"box3", fm::Window3D::box(3)},
                   {"box5", fm::Window3D::box(5)},
                   {"box5x5x3", fm::Window3D::box(5, 5, 3)},
                   {"box7x7x3", fm::Window3D::box(7, 7, 3)},
                   {"box7", fm::Window3D::box(7)},
                   {"ellipsoid1", fm::Window3D::ellipsoid(1)},
                   {"ellipsoid2", fm::Window3D::ellipsoid(2)},
                   {"ellipsoid2,2,1", fm::Window3D::ellipsoid(2, 2, 1)},
                   {"ellipsoid3,3,1", fm::Window3D::ellipsoid(3, 3, 1)},
                   {"ellipsoid3,3,2", fm::Window3D::ellipsoid(3, 3, 2)},
                   {"ellipsoid3", fm::Window3D::ellipsoid(3)},
                   {"box3x3x5", fm::Window3D::box(3, 3, 5)},
                   {"box7x7x5", fm::Window3D::box(7, 7, 5)},
                   {"ellipsoid2,2,3", fm::Window3D::ellipsoid(2, 2, 3)},
                   {"box5x5x1", fm::Window3D::box(5, 5, 1)},
                   {"ellipsoid2,2,0", fm::Window3D::ellipsoid(2, 2, 0)}};
    for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
        const bench::HostImage beads =
            bench::bead_volume(args.images, type, args.width, args.height, args.depth);
        for (const std::string& kind : bench::data_kinds(args.data, type)) {
            const bench::HostImage src = bench::make_input(kind, beads);
            std::vector<std::uint8_t> dst(src.bytes.size());
            const fm::ConstImageView in = src.view();
            fm::ImageView out;
            std::memcpy(static_cast<void*>(&out), &in, sizeof out);
            out.data = dst.data();
            for (const auto& w : windows) {
                const std::string name = "," + std::string(w.name) + ",";
                if (!args.windows.empty() && args.windows.find(name) == std::string::npos) continue;
                fm::Median3DOptions options;
                options.backend = fm::Backend::cpu;
                options.window = w.window;
                const double s = median_seconds(args.runs, [&] { fm::median3d(in, out, options); });
                std::printf("%-4s %-7s %-15s %10.1f Mvox/s\n", fm::pixel_type_name(type), kind.c_str(),
                            w.name, static_cast<double>(src.pixels()) / 1e6 / s);
                std::fflush(stdout);
            }
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "fastmedian_bench_median3d_cpu: %s\n", e.what());
    return 1;
}
