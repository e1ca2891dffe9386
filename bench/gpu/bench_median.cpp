// GPU median throughput: our median2d on device-resident images, on every kind of data
// (data_kinds.hpp: the shared images tiled, f32 with fractions, full-range noise, f32 with every
// value distinct), beside the identity kernel and NPP's median in the same run.
//
//   fastmedian_bench_gpu --images bench/gpu/images [--size 4096] [--runs 15] [--json FILE]
//                        [--k 3,5,...] [--types u8,u16,f32] [--data all|images,flat,noise,walk]
//                        [--dump DIR]
//
// The time depends on the data: the sliding histograms' on how far the median moves, the f32
// networks' from 5x5 up on whether the values are whole numbers 0..65535 (16-bit keys) or not.
// --dump writes each input to DIR (data_kinds.hpp, dump_input) for cupy_peer.py to read.
//
// Each figure is the median over `runs` timed batches (CUDA events) of back-to-back calls,
// after warm-up; Gpix/s counts output pixels. Ours filters the whole image with the replicate
// border; NPP filters the valid interior only (it has no border modes). Before timing, every
// configuration is checked: the GPU result of the whole image equals the CPU backend's (the
// kernel a call takes depends on the image's size, so a smaller image would check another).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "device_image.hpp"
#include "event_timing.hpp"
#include "identity_kernel.hpp"
#include "data_kinds.hpp"
#ifdef FASTMEDIAN_BENCH_NPP
#include "npp_median.hpp"
#endif

namespace fm = fastmedian;

namespace {

using bench::check;
using bench::DeviceImage;
using bench::time_ms;

// GPU versus CPU backend on the whole (square) image.
bool gpu_equals_cpu(const bench::HostImage& img, const fm::MedianOptions& options) {
    const std::int64_t n = img.width;
    const std::size_t px = fm::pixel_size(img.type);
    fm::ConstImageView src;
    src.data = img.bytes.data();
    src.type = img.type;
    src.width = src.height = n;
    src.row_stride = n * static_cast<std::int64_t>(px);
    src.plane_stride = src.row_stride * n;
    std::vector<std::uint8_t> cpu(n * n * px), gpu(n * n * px, 0xA5);
    fm::ImageView out;
    out.type = img.type;
    out.width = out.height = n;
    out.row_stride = n * static_cast<std::int64_t>(px);
    out.plane_stride = out.row_stride * n;
    fm::MedianOptions o = options;
    o.cuda_stream = nullptr;
    o.backend = fm::Backend::cpu;
    out.data = cpu.data();
    fm::median2d(src, out, o);
    o.backend = fm::Backend::cuda;
    out.data = gpu.data();
    fm::median2d(src, out, o);
    return cpu == gpu;
}

struct Row {
    std::string type, data, method;
    int k;
    double gpix;
    bool exact;
};

}  // namespace

int main(int argc, char** argv) {
    std::string images = "bench/gpu/images", json, data = "all", types = "u8,u16,f32", dump;
    std::int64_t size = 4096;
    int runs = 15;
    std::vector<int> sizes = {3, 5, 7, 9, 11, 15, 21};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--images") images = v;
        else if (a == "--size") size = std::stoll(v);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else if (a == "--data") data = v;
        else if (a == "--types") types = v;
        else if (a == "--dump") dump = v;
        else if (a == "--k") {
            sizes.clear();
            for (std::size_t p = 0; p < v.size();) {
                const std::size_t q = v.find(',', p);
                sizes.push_back(std::stoi(v.substr(p, q - p)));
                p = q == std::string::npos ? v.size() : q + 1;
            }
        } else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    try {
        if (fm::cuda_devices().empty())
            throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        std::printf("device: %s; image %ldx%ld, data %s; %d runs\n", fm::cuda_devices()[0].name.c_str(),
                    size, size, data.c_str(), runs);
        cudaStream_t stream;
        check(cudaStreamCreate(&stream), "cudaStreamCreate");
        std::vector<Row> rows;
        for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
            if (types.find(fm::pixel_type_name(type)) == std::string::npos) continue;
            const bench::HostImage shared = bench::tile(bench::read_raw(images, type), size);
            const std::int64_t row_bytes = size * static_cast<std::int64_t>(fm::pixel_size(type));
            DeviceImage d_src(row_bytes, size), d_dst(row_bytes, size);
            const double pixels = static_cast<double>(size) * size;
            const std::string tn = fm::pixel_type_name(type);

            DeviceImage a(size * size * fm::pixel_size(type), 1),
                b(size * size * fm::pixel_size(type), 1);
            const double id_ms = time_ms([&] {
                check(bench::launch_identity(a.ptr, b.ptr, size * size * fm::pixel_size(type), stream),
                      "identity");
            }, stream, runs);
            rows.push_back({tn, "-", "identity", 0, pixels / id_ms / 1e6, true});

            for (const std::string& kind : bench::data_kinds(data, type)) {
                const bench::HostImage img = bench::make_input(kind, shared);
                if (!dump.empty()) bench::dump_input(dump, kind, img);
                d_src.upload(img);
                for (int k : sizes) {
                    fm::MedianOptions o;
                    o.window = fm::Window::square(k);
                    o.cuda_stream = stream;
                    const bool exact = gpu_equals_cpu(img, o);
                    const double ms = time_ms([&] {
                        fm::median2d(fm::as_const(d_src.view(type, size, size)),
                                     d_dst.view(type, size, size), o);
                    }, stream, runs);
                    rows.push_back({tn, kind, "fastmedian", k, pixels / ms / 1e6, exact});
                    std::printf("  %s %s k=%d: %.3f Gpix/s%s\n", tn.c_str(), kind.c_str(), k,
                                pixels / ms / 1e6, exact ? "" : "  !!! MISMATCH vs CPU");
#ifdef FASTMEDIAN_BENCH_NPP
                    bench::NppMedian npp(type, static_cast<int>(size), static_cast<int>(size), k, stream);
                    bool npp_ok = true;
                    const double npp_ms = time_ms([&] {
                        npp_ok = npp.run(d_src.ptr, d_src.pitch, d_dst.ptr, d_dst.pitch) && npp_ok;
                    }, stream, runs);
                    rows.push_back({tn, kind, npp_ok ? "npp" : "npp (failed)", k,
                                    static_cast<double>(npp.output_pixels()) / npp_ms / 1e6, npp_ok});
#endif
                    std::fflush(stdout);
                }
            }
        }
        cudaStreamDestroy(stream);
        std::printf("\n%-5s %-7s %-12s %4s %12s %6s\n", "type", "data", "method", "k", "Gpix/s", "exact");
        for (const Row& r : rows)
            std::printf("%-5s %-7s %-12s %4d %12.3f %6s\n", r.type.c_str(), r.data.c_str(),
                        r.method.c_str(), r.k, r.gpix, r.exact ? "yes" : "NO");
        if (!json.empty()) {
            std::ofstream out(json);
            out << "[\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << "  {\"type\": \"" << rows[i].type << "\", \"data\": \"" << rows[i].data
                    << "\", \"method\": \"" << rows[i].method
                    << "\", \"k\": " << rows[i].k << ", \"gpix_per_s\": " << rows[i].gpix
                    << ", \"exact\": " << (rows[i].exact ? "true" : "false") << "}"
                    << (i + 1 < rows.size() ? ",\n" : "\n");
            out << "]\n";
        }
        for (const Row& r : rows)
            if (!r.exact && r.method == "fastmedian") return 1;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_gpu: %s\n", e.what());
        return 1;
    }
}
