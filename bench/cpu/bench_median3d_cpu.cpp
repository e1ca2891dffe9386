// CPU 3D median throughput: our median3d on a volume of uniformly random values (the networks'
// speed does not depend on the data; sorting's does little on such noise).
//
//   fastmedian_bench_median3d_cpu [--size 256x256x64] [--runs 7]
//
// Windows: boxes 3x3x3 and 5x5x5, ImageJ ellipsoids of radius 1 and 2, replicate border, on all
// cores (run under `taskset -c 0` for one core). Each figure is the median of `runs` timed
// calls after one warm-up call, in output Mvox/s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "median_seconds.hpp"

namespace fm = fastmedian;

namespace {

struct Args {
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
        } else {
            throw std::runtime_error("unknown option " + key);
        }
    }
    return a;
}

// A dense width x height x depth view of `type` over `bytes`.
template <class View, class Byte>
View volume_view(Byte* bytes, fm::PixelType type, const Args& a) {
    View v;
    v.data = bytes;
    v.type = type;
    v.width = a.width;
    v.height = a.height;
    v.planes = a.depth;
    v.row_stride = a.width * static_cast<std::int64_t>(fm::pixel_size(type));
    v.plane_stride = v.row_stride * a.height;
    return v;
}

}  // namespace

int main(int argc, char** argv) try {
    const Args args = parse(argc, argv);
    const std::int64_t voxels = args.width * args.height * args.depth;
    std::printf("CPU 3D median, %ldx%ldx%ld random volume, median of %d runs, %u hardware threads\n",
                args.width, args.height, args.depth, args.runs, std::thread::hardware_concurrency());
    std::mt19937 rng(1);
    const struct {
        const char* name;
        fm::Window3D window;
    } windows[] = {{"box3", fm::Window3D::box(3)},
                   {"box5", fm::Window3D::box(5)},
                   {"ellipsoid1", fm::Window3D::ellipsoid(1)},
                   {"ellipsoid2", fm::Window3D::ellipsoid(2)}};
    for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
        const std::size_t bytes = static_cast<std::size_t>(voxels) * fm::pixel_size(type);
        std::vector<std::uint8_t> src(bytes), dst(bytes);
        for (std::size_t i = 0; i < bytes; i += fm::pixel_size(type)) {
            const std::uint32_t v = rng();
            if (type == fm::PixelType::f32) {
                const float f = static_cast<float>(v % 65536) / 255.0f;
                std::memcpy(&src[i], &f, sizeof f);
            } else {
                std::memcpy(&src[i], &v, fm::pixel_size(type));
            }
        }
        const auto in = volume_view<fm::ConstImageView>(src.data(), type, args);
        const auto out = volume_view<fm::ImageView>(dst.data(), type, args);
        for (const auto& w : windows) {
            fm::Median3DOptions options;
            options.backend = fm::Backend::cpu;
            options.window = w.window;
            const double s = median_seconds(args.runs, [&] { fm::median3d(in, out, options); });
            std::printf("%-4s %-10s %10.1f Mvox/s\n", fm::pixel_type_name(type), w.name,
                        static_cast<double>(voxels) / 1e6 / s);
            std::fflush(stdout);
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "fastmedian_bench_median3d_cpu: %s\n", e.what());
    return 1;
}
