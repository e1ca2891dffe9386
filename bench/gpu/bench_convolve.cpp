// GPU convolution throughput: our convolve on device-resident 4096 x 4096 images tiled from the
// shared real images, beside the identity kernel and NPP (nppiFilter, nppiFilterRow + Column)
// in the same run.
//
//   fastmedian_bench_convolve_gpu --images bench/gpu/images [--size 4096] [--runs 15]
//                                 [--types u8,u16,f32] [--json FILE]
//
// Cases: generic k x k masks (k = 3, 5, 9, 31; symmetric, positive, normalised weights) and
// the Gaussian blur (sigma 1, 3, 10; separable). Each figure is the median over `runs` timed
// batches (CUDA events) of back-to-back calls after warm-up; Gpix/s counts output pixels. Ours
// filters the whole image (replicate border) into the input's type; NPP the valid interior
// only (it has no border modes). Before timing, each of our configurations is checked: the GPU
// result of a 384 x 384 corner equals the CPU backend's bit for bit; and NPP's interior is
// compared with ours (f32: relative difference; integer types: at most 1 apart, NPP's separable
// pair rounds its intermediate to the image type, so it may differ more there).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "device_image.hpp"
#include "identity_kernel.hpp"
#include "raw_image.hpp"
#ifdef FASTMEDIAN_BENCH_NPP
#include "npp_convolve.hpp"
#endif

namespace fm = fastmedian;

namespace {

using bench::check;
using bench::DeviceImage;

// Median milliseconds per call over `runs` batches; batches hold enough calls to fill ~2 ms.
double time_ms(const std::function<void()>& call, cudaStream_t stream, int runs) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (int i = 0; i < 3; ++i) call();  // warm-up
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    call();
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float one = 0;
    cudaEventElapsedTime(&one, start, stop);
    const int batch = std::clamp(static_cast<int>(2.0f / std::max(one, 1e-3f)), 1, 50);
    if (one > 200.0f) runs = std::min(runs, 3);
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        for (int b = 0; b < batch; ++b) call();
        check(cudaEventRecord(stop, stream), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        ms.push_back(static_cast<double>(t) / batch);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
}

// GPU versus CPU backend on the image's top-left 384 x 384 corner, as an image of its own.
bool gpu_equals_cpu(const bench::HostImage& img, const fm::ConvolveOptions& options) {
    const std::int64_t n = std::min<std::int64_t>(384, img.width);
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
    fm::ConvolveOptions o = options;
    o.cuda_stream = nullptr;
    o.backend = fm::Backend::cpu;
    out.data = cpu.data();
    fm::convolve(src, out, o);
    o.backend = fm::Backend::cuda;
    out.data = gpu.data();
    fm::convolve(src, out, o);
    return cpu == gpu;
}

struct Case {
    std::string name;  // "5x5", "gauss 3"
    bool separable;
    int k;             // mask side
    double sigma;
};

// A symmetric k x k mask of positive weights, normalised (its sum is 1).
std::vector<float> box_like_mask(int k) {
    std::vector<float> m(static_cast<std::size_t>(k * k));
    double sum = 0.0;
    const int r = k / 2;
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i) sum += m[j * k + i] = static_cast<float>(1 + (std::abs(i - r) * 3 + std::abs(j - r) * 5) % 7);
    for (float& w : m) w = static_cast<float>(w / sum);
    return m;
}

struct Row {
    std::string type, method, name;
    double gpix;
    bool ok;
    std::string note;
};

std::vector<std::string> split(const std::string& v) {
    std::vector<std::string> out;
    for (std::size_t p = 0; p < v.size();) {
        const std::size_t q = v.find(',', p);
        out.push_back(v.substr(p, q - p));
        p = q == std::string::npos ? v.size() : q + 1;
    }
    return out;
}

#ifdef FASTMEDIAN_BENCH_NPP
// The largest difference between NPP's interior and ours: relative to |ours| for floats, in
// units for integers.
double npp_difference(fm::PixelType type, const DeviceImage& ours, const DeviceImage& npp, std::int64_t size,
                      int rx, int ry) {
    const std::size_t px = fm::pixel_size(type);
    std::vector<std::uint8_t> a(size * size * px), b(a.size());
    check(cudaMemcpy2D(a.data(), size * px, ours.ptr, ours.pitch, size * px, size, cudaMemcpyDeviceToHost), "download");
    check(cudaMemcpy2D(b.data(), size * px, npp.ptr, npp.pitch, size * px, size, cudaMemcpyDeviceToHost), "download");
    double worst = 0.0;
    for (std::int64_t y = ry; y < size - ry; y += 7)
        for (std::int64_t x = rx; x < size - rx; ++x) {
            const std::size_t i = static_cast<std::size_t>(y * size + x);
            double u = 0, v = 0;
            switch (type) {
                case fm::PixelType::u8: u = a[i]; v = b[i]; break;
                case fm::PixelType::u16: u = reinterpret_cast<std::uint16_t*>(a.data())[i]; v = reinterpret_cast<std::uint16_t*>(b.data())[i]; break;
                case fm::PixelType::f32: u = reinterpret_cast<float*>(a.data())[i]; v = reinterpret_cast<float*>(b.data())[i]; break;
            }
            const double d = type == fm::PixelType::f32 ? std::fabs(u - v) / std::max(std::fabs(u), 1e-6) : std::fabs(u - v);
            worst = std::max(worst, d);
        }
    return worst;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    std::string images = "bench/gpu/images", json;
    std::int64_t size = 4096;
    int runs = 15;
    std::vector<std::string> types = {"u8", "u16", "f32"};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--images") images = v;
        else if (a == "--size") size = std::stoll(v);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else if (a == "--types") types = split(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    const std::vector<Case> cases = {{"3x3", false, 3, 0},    {"5x5", false, 5, 0},    {"9x9", false, 9, 0},
                                     {"31x31", false, 31, 0}, {"gauss 1", true, 9, 1}, {"gauss 3", true, 25, 3},
                                     {"gauss 10", true, 81, 10}};
    try {
        if (fm::cuda_devices().empty()) throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        std::printf("device: %s; image %ldx%ld tiled from the shared images; %d runs\n",
                    fm::cuda_devices()[0].name.c_str(), size, size, runs);
        cudaStream_t stream;
        check(cudaStreamCreate(&stream), "cudaStreamCreate");
        std::vector<Row> rows;
        bool all_exact = true;
        for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
            const std::string tn = fm::pixel_type_name(type);
            if (std::find(types.begin(), types.end(), tn) == types.end()) continue;
            const bench::HostImage img = bench::tile(bench::read_raw(images, type), size);
            const std::int64_t row_bytes = size * static_cast<std::int64_t>(fm::pixel_size(type));
            DeviceImage d_src(row_bytes, size), d_dst(row_bytes, size), d_npp(row_bytes, size);
            check(cudaMemcpy2D(d_src.ptr, d_src.pitch, img.bytes.data(), row_bytes, row_bytes, size,
                               cudaMemcpyHostToDevice),
                  "upload");
            const double pixels = static_cast<double>(size) * size;

            DeviceImage a(size * size * fm::pixel_size(type), 1), b(size * size * fm::pixel_size(type), 1);
            const double id_ms = time_ms([&] {
                check(bench::launch_identity(a.ptr, b.ptr, size * size * fm::pixel_size(type), stream), "identity");
            }, stream, runs);
            rows.push_back({tn, "identity", "", pixels / id_ms / 1e6, true, ""});

            for (const Case& c : cases) {
                fm::ConvolveOptions o = c.separable ? fm::ConvolveOptions::gaussian(c.sigma)
                                                    : fm::ConvolveOptions::generic(box_like_mask(c.k), c.k, c.k);
                o.cuda_stream = stream;
                const bool exact = gpu_equals_cpu(img, o);
                all_exact = all_exact && exact;
                const double ms = time_ms([&] {
                    fm::convolve(fm::as_const(d_src.view(type, size, size)), d_dst.view(type, size, size), o);
                }, stream, runs);
                rows.push_back({tn, "fastmedian", c.name, pixels / ms / 1e6, exact, exact ? "" : "GPU != CPU"});
#ifdef FASTMEDIAN_BENCH_NPP
                const int k = c.separable ? static_cast<int>(o.row_mask.size()) : c.k;
                bench::NppConvolve npp(type, static_cast<int>(size), static_cast<int>(size), c.separable, o.mask, k, k,
                                       o.row_mask, o.column_mask, stream);
                bool npp_ok = true;
                const double npp_ms = time_ms([&] { npp_ok = npp.run(d_src.ptr, d_src.pitch, d_npp.ptr, d_npp.pitch) && npp_ok; },
                                              stream, runs);
                std::string note;
                if (npp_ok) {
                    check(cudaStreamSynchronize(stream), "NPP");
                    char buf[64];
                    std::snprintf(buf, sizeof buf, type == fm::PixelType::f32 ? "max rel diff %.2g" : "max diff %.0f",
                                  npp_difference(type, d_dst, d_npp, size, k / 2, k / 2));
                    note = buf;
                }
                rows.push_back({tn, npp_ok ? "npp" : "npp (failed)", c.name,
                                static_cast<double>(npp.output_pixels()) / npp_ms / 1e6, npp_ok, note});
#endif
                std::printf("%s %-9s ours %8.1f Gpix/s%s\n", tn.c_str(), c.name.c_str(), pixels / ms / 1e6,
                            exact ? "" : "  (GPU != CPU!)");
                std::fflush(stdout);
            }
        }
        cudaStreamDestroy(stream);
        if (!json.empty()) {
            std::ofstream out(json);
            out << "[\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << "  {\"type\": \"" << rows[i].type << "\", \"method\": \"" << rows[i].method
                    << "\", \"case\": \"" << rows[i].name << "\", \"gpix_per_s\": " << rows[i].gpix
                    << ", \"ok\": " << (rows[i].ok ? "true" : "false") << ", \"note\": \"" << rows[i].note << "\"}"
                    << (i + 1 < rows.size() ? ",\n" : "\n");
            out << "]\n";
        }
        // The table: ours beside the identity kernel and NPP, per type and case.
        std::printf("\n%-4s %-9s %9s %9s %9s %8s %8s  %s\n", "type", "case", "ours", "identity", "NPP",
                    "%ident", "xNPP", "notes");
        for (const Row& r : rows) {
            if (r.method != "fastmedian") continue;
            double ident = 0, npp = 0;
            std::string note = r.note;
            for (const Row& s : rows) {
                if (s.type != r.type) continue;
                if (s.method == "identity") ident = s.gpix;
                if ((s.method == "npp" || s.method == "npp (failed)") && s.name == r.name) {
                    npp = s.ok ? s.gpix : 0;
                    note += (note.empty() ? "" : "; ") + std::string(s.ok ? "NPP " + s.note : "NPP failed");
                }
            }
            std::printf("%-4s %-9s %9.1f %9.1f %9.1f %7.0f%% %8.2f  %s\n", r.type.c_str(), r.name.c_str(), r.gpix,
                        ident, npp, 100.0 * r.gpix / ident, npp > 0 ? r.gpix / npp : 0.0, note.c_str());
        }
        return all_exact ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_convolve_gpu: %s\n", e.what());
        return 1;
    }
}
