// Large-window median throughput: fastmedian's background (method exact, which is median2d,
// and method separable, output background) on device-resident images of every kind of data
// (data_kinds.hpp: the shared images tiled, f32 with fractions, full-range noise, f32 with every
// value distinct), beside the identity kernel and NPP's median in the same run, and the
// published 2D wavelet matrix figures of docs/design.md (measured on the same machine kind).
//
//   fastmedian_bench_background --images bench/gpu/images [--size 4096] [--runs 7]
//       [--k 31,65,129,255] [--types u8,u16,f32] [--methods exact,separable] [--npp 1] [--json FILE]
//       [--data all|images,flat,noise,walk] [--dump DIR]
//
// The exact medians' sliding histograms take longer where the median moves far between
// neighbouring outputs, and the ranked paths where a plane holds many distinct values.
// --dump writes each input to DIR (data_kinds.hpp, dump_input) for cupy_peer.py to read.
//
// Each figure is the median over `runs` timed batches (CUDA events) after warm-up; Gpix/s counts
// output pixels. Before timing, every configuration is checked: the GPU result on a 512 x 512
// corner (more distinct values than a rank table holds, on noise) equals the CPU backend's. NPP
// filters the valid interior only, runs for k up to 65, and only once where one call takes over
// a second.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "device_image.hpp"
#include "identity_kernel.hpp"
#include "data_kinds.hpp"
#ifdef FASTMEDIAN_BENCH_NPP
#include "npp_median.hpp"
#endif

namespace fm = fastmedian;

namespace {

using bench::check;
using bench::DeviceImage;

// Median milliseconds per call; one call if a single call takes over `slow_ms`.
double time_ms(const std::function<void()>& call, cudaStream_t stream, int runs, double slow_ms = 1e30) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    auto once = [&] {
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        call();
        check(cudaEventRecord(stop, stream), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        return static_cast<double>(t);
    };
    std::vector<double> ms{once()};  // warm-up, and a first measure
    if (ms[0] < slow_ms) {
        ms.clear();
        if (once() > 300.0) runs = std::min(runs, 3);
        for (int r = 0; r < runs; ++r) ms.push_back(once());
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
}

// GPU versus CPU backend on the image's top-left 512 x 512 corner, as an image of its own.
bool gpu_equals_cpu(const bench::HostImage& img, fm::BackgroundOptions o) {
    const std::int64_t n = std::min<std::int64_t>(512, img.width);
    const std::size_t px = fm::pixel_size(img.type);
    fm::ConstImageView src;
    src.data = img.bytes.data();
    src.type = img.type;
    src.width = src.height = n;
    src.row_stride = img.width * static_cast<std::int64_t>(px);
    src.plane_stride = src.row_stride * n;
    std::vector<std::uint8_t> cpu(n * n * px), gpu(n * n * px, 0xA5);
    fm::ImageView out;
    out.type = img.type;
    out.width = out.height = n;
    out.row_stride = n * static_cast<std::int64_t>(px);
    out.plane_stride = out.row_stride * n;
    o.cuda_stream = nullptr;
    o.backend = fm::Backend::cpu;
    out.data = cpu.data();
    fm::background(src, out, o);
    o.backend = fm::Backend::cuda;
    out.data = gpu.data();
    fm::background(src, out, o);
    return cpu == gpu;
}

struct Row {
    std::string type, data, method;
    int k;
    double gpix;
    bool exact;
};

// docs/design.md: the 2D wavelet matrix with construction (H100, 4096^2), Gpix/s.
const std::map<int, std::vector<double>> kWaveletMatrix = {
    {31, {1.5, 0.65, 0.32}}, {65, {1.5, 0.71, 0.32}}, {129, {1.5, 0.71, 0.31}}};

}  // namespace

int main(int argc, char** argv) {
    std::string images = "bench/gpu/images", json, data = "all", dump;
    std::int64_t size = 4096;
    int runs = 7;
    std::vector<int> sizes = {31, 65, 129, 255};
    std::string types = "u8,u16,f32", methods = "exact,separable";
    [[maybe_unused]] bool with_npp = true;  // NPP is measured only where the build found it
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--images") images = v;
        else if (a == "--size") size = std::stoll(v);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else if (a == "--data") data = v;
        else if (a == "--dump") dump = v;
        else if (a == "--types") types = v;
        else if (a == "--methods") methods = v;
        else if (a == "--npp") with_npp = v != "0";
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
            DeviceImage a(size * size * fm::pixel_size(type), 1), b(size * size * fm::pixel_size(type), 1);
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
                    for (auto method : {fm::BackgroundMethod::exact, fm::BackgroundMethod::separable}) {
                        if (methods.find(fm::background_method_name(method)) == std::string::npos) continue;
                        fm::BackgroundOptions o;
                        o.window = fm::Window::square(k);
                        o.method = method;
                        o.output = fm::BackgroundOutput::background;
                        o.cuda_stream = stream;
                        const bool exact = gpu_equals_cpu(img, o);
                        const double ms = time_ms([&] {
                            fm::background(fm::as_const(d_src.view(type, size, size)),
                                           d_dst.view(type, size, size), o);
                        }, stream, runs);
                        rows.push_back({tn, kind, fm::background_method_name(method), k, pixels / ms / 1e6, exact});
                        std::printf("  %s %s k=%d %s: %.3f Gpix/s%s\n", tn.c_str(), kind.c_str(), k,
                                    fm::background_method_name(method), pixels / ms / 1e6,
                                    exact ? "" : "  !!! MISMATCH vs CPU");
                        std::fflush(stdout);
                    }
#ifdef FASTMEDIAN_BENCH_NPP
                    if (!with_npp || k > 65) continue;  // NPP's cost grows with k^2: beyond 65 a call takes minutes
                    bench::NppMedian npp(type, static_cast<int>(size), static_cast<int>(size), k, stream);
                    bool npp_ok = true;
                    const double npp_ms = time_ms([&] {
                        npp_ok = npp.run(d_src.ptr, d_src.pitch, d_dst.ptr, d_dst.pitch) && npp_ok;
                    }, stream, runs, 1000.0);
                    rows.push_back({tn, kind, npp_ok ? "npp" : "npp (failed)", k,
                                    static_cast<double>(npp.output_pixels()) / npp_ms / 1e6, npp_ok});
                    std::printf("  %s %s k=%d npp: %.4f Gpix/s\n", tn.c_str(), kind.c_str(), k,
                                static_cast<double>(npp.output_pixels()) / npp_ms / 1e6);
                    std::fflush(stdout);
#endif
                }
            }
        }
        cudaStreamDestroy(stream);
        auto find = [&](const std::string& t, const std::string& d, const std::string& m, int k) -> const Row* {
            for (const Row& r : rows)
                if (r.type == t && (r.data == d || m == "identity") && r.method == m && r.k == k) return &r;
            return nullptr;
        };
        std::printf("\n| type | data | k | exact | separable | identity | NPP | wavelet matrix (DESIGN.md) | all exact |\n");
        std::printf("|---|---|---|---|---|---|---|---|---|\n");
        const char* names[] = {"u8", "u16", "f32"};
        const fm::PixelType all_types[] = {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32};
        for (int ti = 0; ti < 3; ++ti) {
            const Row* id = find(names[ti], "-", "identity", 0);
            if (id == nullptr) continue;  // type not run
            for (int k : sizes)
                for (const std::string& kind : bench::data_kinds(data, all_types[ti])) {
                    const Row* e = find(names[ti], kind, "exact", k);
                    const Row* s = find(names[ti], kind, "separable", k);
                    const Row* n = find(names[ti], kind, "npp", k);
                    const auto wm = kWaveletMatrix.find(k);
                    auto gpix = [](const Row* r) {  // "-" for a method not run
                        char text[32] = "-";
                        if (r != nullptr) std::snprintf(text, sizeof text, "%.3g", r->gpix);
                        return std::string(text);
                    };
                    std::printf("| %s | %s | %d | %s | %s | %.0f | %s | %s | %s |\n", names[ti], kind.c_str(),
                                k, gpix(e).c_str(), gpix(s).c_str(), id->gpix, gpix(n).c_str(),
                                wm != kWaveletMatrix.end() ? std::to_string(wm->second[ti]).substr(0, 4).c_str() : "-",
                                (!e || e->exact) && (!s || s->exact) ? "yes" : "NO");
                }
        }
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
            if (!r.exact) return 1;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_background: %s\n", e.what());
        return 1;
    }
}
