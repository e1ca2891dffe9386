// GPU 3D median throughput: our median3d on device-resident volumes of every kind of data
// (data_kinds.hpp: the shared bead stack, Bead_Image1_crop.tif via bench/gpu/prepare_images.py,
// mirror-tiled; f32 with fractions; full-range noise; f32 with every value distinct), beside the
// identity kernel (a copy of the volume) in the same run; CuPy's median_filter runs on the same
// volumes (--dump) from bench/gpu/cupy_median3d.py.
//
//   fastmedian_bench_median3d --images bench/gpu/images [--size 512x512x256] [--runs 15]
//       [--json FILE] [--data all|images,flat,noise] [--dump DIR]
//
// Windows: boxes 3x3x3, 5x5x5 and 7x7x7, ImageJ ellipsoids of radius 1, 2 and 3, and the
// anisotropic windows of stacks with a coarser z step (boxes 5x5x3 and 7x7x3, ellipsoids 2,2,1,
// 3,3,1 and 3,3,2) or a finer one (boxes 3x3x5 and 7x7x5, ellipsoid 2,2,3), and windows one
// plane deep (box 5x5x1, ellipsoid 2,2,0: the 2D paths), and windows without a tiled network
// (boxes 5x3x3, 7x5x3, 3x3x9, 9x5x3 and ellipsoids 1.5 and 2.5,2.5,1 on the padded networks,
// box 9x5x5 on the radix selection), replicate border.
// In the bead stack u16 holds the values times 257, f32 the values / 255. Each figure is the median of
// `runs` timed batches after warm-up (event_timing.hpp), in output Gvox/s. Before timing,
// every configuration is checked: the GPU result on a 96 x 80 x 24 corner volume equals the
// CPU backend's.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_image.hpp"
#include "event_timing.hpp"
#include "fastmedian/fastmedian.hpp"
#include "data_kinds.hpp"
#include "identity_kernel.hpp"

namespace fm = fastmedian;

namespace {

using bench::check;

// GPU versus CPU backend on a corner of the volume, as a volume of its own.
bool gpu_equals_cpu(const bench::HostImage& vol, const fm::Median3DOptions& options) {
    const bench::HostImage corner = [&] {
        bench::HostImage c;
        c.type = vol.type;
        c.width = 96;
        c.height = 80;
        c.depth = 24;
        const std::size_t px = fm::pixel_size(vol.type), row = 96 * px;
        for (std::int64_t z = 0; z < c.depth; ++z)
            for (std::int64_t y = 0; y < c.height; ++y) {
                const std::uint8_t* r = vol.bytes.data() + ((z * vol.height + y) * vol.width) * px;
                c.bytes.insert(c.bytes.end(), r, r + row);
            }
        return c;
    }();
    std::vector<std::uint8_t> cpu(corner.bytes.size()), gpu(corner.bytes.size(), 0xA5);
    auto out = [&](std::vector<std::uint8_t>& bytes) {
        fm::ImageView v = fm::ImageView::dense<std::uint8_t>(bytes.data(), corner.width, corner.height, corner.depth);
        v.type = corner.type;
        v.row_stride = corner.width * static_cast<std::int64_t>(fm::pixel_size(corner.type));
        v.plane_stride = v.row_stride * corner.height;
        return v;
    };
    fm::Median3DOptions o = options;
    o.cuda_stream = nullptr;
    o.backend = fm::Backend::cpu;
    fm::median3d(corner.view(), out(cpu), o);
    o.backend = fm::Backend::cuda;
    fm::median3d(corner.view(), out(gpu), o);
    return cpu == gpu;
}

struct Row {
    std::string type, data, method;
    double gvox;
    bool exact;
};

}  // namespace

int main(int argc, char** argv) {
    std::string images = "bench/gpu/images", json, data = "all", dump;
    std::int64_t w = 512, h = 512, d = 256;
    int runs = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--images") images = v;
        else if (a == "--size") std::sscanf(v.c_str(), "%ldx%ldx%ld", &w, &h, &d);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else if (a == "--data") data = v;
        else if (a == "--dump") dump = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    const std::pair<const char*, fm::Window3D> windows[] = {
        {"box 3x3x3", fm::Window3D::box(3)},           {"box 5x5x5", fm::Window3D::box(5)},
        {"box 5x5x3", fm::Window3D::box(5, 5, 3)},     {"box 7x7x3", fm::Window3D::box(7, 7, 3)},
        {"box 7x7x7", fm::Window3D::box(7)},           {"ellipsoid r1", fm::Window3D::ellipsoid(1)},
        {"ellipsoid r2", fm::Window3D::ellipsoid(2)},  {"ellipsoid r3", fm::Window3D::ellipsoid(3)},
        {"ellipsoid 2,2,1", fm::Window3D::ellipsoid(2, 2, 1)},
        {"ellipsoid 3,3,1", fm::Window3D::ellipsoid(3, 3, 1)},
        {"ellipsoid 3,3,2", fm::Window3D::ellipsoid(3, 3, 2)},
        {"box 3x3x5", fm::Window3D::box(3, 3, 5)},     {"box 7x7x5", fm::Window3D::box(7, 7, 5)},
        {"ellipsoid 2,2,3", fm::Window3D::ellipsoid(2, 2, 3)}, {"box 5x5x1", fm::Window3D::box(5, 5, 1)},
        {"ellipsoid 2,2,0", fm::Window3D::ellipsoid(2, 2, 0)}, {"box 5x3x3", fm::Window3D::box(5, 3, 3)},
        {"box 7x5x3", fm::Window3D::box(7, 5, 3)},     {"box 3x3x9", fm::Window3D::box(3, 3, 9)},
        {"box 9x5x3", fm::Window3D::box(9, 5, 3)},     {"ellipsoid 1.5", fm::Window3D::ellipsoid(1.5)},
        {"ellipsoid 2.5,2.5,1", fm::Window3D::ellipsoid(2.5, 2.5, 1)},
        {"box 9x5x5", fm::Window3D::box(9, 5, 5)}};
    try {
        if (fm::cuda_devices().empty())
            throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        std::printf("device: %s; volume %ldx%ldx%ld, data %s; %d runs\n",
                    fm::cuda_devices()[0].name.c_str(), w, h, d, data.c_str(), runs);
        cudaStream_t stream;
        check(cudaStreamCreate(&stream), "cudaStreamCreate");
        std::vector<Row> rows;
        const double voxels = static_cast<double>(w) * h * d;
        for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
            const bench::HostImage beads = bench::bead_volume(images, type, w, h, d);
            const std::int64_t row_bytes = w * static_cast<std::int64_t>(fm::pixel_size(type));
            bench::DeviceImage d_src(row_bytes, h * d), d_dst(row_bytes, h * d);
            auto view = [&](const bench::DeviceImage& img) {
                fm::ImageView v = img.view(type, w, h);
                v.planes = d;
                return v;
            };
            const std::string tn = fm::pixel_type_name(type);
            const std::size_t bytes = beads.bytes.size() / 16 * 16;
            bench::DeviceImage a(static_cast<std::int64_t>(bytes), 1), b(static_cast<std::int64_t>(bytes), 1);
            const double id_ms = bench::time_ms([&] {
                check(bench::launch_identity(a.ptr, b.ptr, bytes, stream), "identity");
            }, stream, runs);
            rows.push_back({tn, "-", "identity", voxels / id_ms / 1e6, true});
            for (const std::string& kind : bench::data_kinds(data, type)) {
                const bench::HostImage vol = bench::make_input(kind, beads);
                if (!dump.empty()) bench::dump_input(dump, kind, vol);
                d_src.upload(vol);
                for (const auto& [name, window] : windows) {
                    fm::Median3DOptions o;
                    o.window = window;
                    o.cuda_stream = stream;
                    const bool exact = gpu_equals_cpu(vol, o);
                    const double ms = bench::time_ms([&] {
                        fm::median3d(fm::as_const(view(d_src)), view(d_dst), o);
                    }, stream, runs);
                    rows.push_back({tn, kind, name, voxels / ms / 1e6, exact});
                    std::printf("%s %s %s: %.2f Gvox/s%s\n", tn.c_str(), kind.c_str(), name,
                                voxels / ms / 1e6, exact ? "" : " (NOT EXACT)");
                    std::fflush(stdout);
                }
            }
        }
        cudaStreamDestroy(stream);
        if (!json.empty()) {
            std::ofstream out(json);
            out << "[\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << "  {\"type\": \"" << rows[i].type << "\", \"data\": \"" << rows[i].data
                    << "\", \"method\": \"" << rows[i].method
                    << "\", \"gvox_per_s\": " << rows[i].gvox
                    << ", \"exact\": " << (rows[i].exact ? "true" : "false") << "}"
                    << (i + 1 < rows.size() ? ",\n" : "\n");
            out << "]\n";
        }
        for (const Row& r : rows)
            if (!r.exact) return 1;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_median3d: %s\n", e.what());
        return 1;
    }
}
