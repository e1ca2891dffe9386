// End-to-end throughput from host memory (issue 8): a stack in host memory filtered by the
// CUDA backend and written back to host memory, beside the transfer limit measured in the same
// run: the whole stack uploaded and downloaded at once on two streams from pinned memory
// (bytes in + bytes out over the time both take together).
//
//   fastmedian_bench_pipeline [--size 2048x2048x200] [--runs 5] [--json FILE]
//
// Stack: u16, mirror-tiled random-walk texture (values need not be real: the transfers and
// kernels take the same time). Cases: median 3x3 and 7x7, temporal median N = 50; each from
// pinned host buffers (cudaMallocHost) and from pageable ones (what a Java array or a TIFF read
// into a std::vector is). Figures: the median of `runs` wall-clock times after a warm-up call,
// as output Gpix/s and as a fraction of the transfer limit's Gpix/s.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_image.hpp"
#include "fastmedian/fastmedian.hpp"

namespace fm = fastmedian;

namespace {

using bench::check;

double median_ms(const std::function<void()>& call, int runs) {
    call();  // warm-up: contexts, buffers, the first touch of pageable memory
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        call();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
}

// Host memory of either kind.
struct HostBytes {
    HostBytes(std::size_t n, bool pinned) : size(n), pinned(pinned) {
        if (pinned) check(cudaMallocHost(&data, n), "cudaMallocHost");
        else data = new std::uint8_t[n];
        std::memset(data, 0, n);  // touch every page
    }
    ~HostBytes() {
        if (pinned) cudaFreeHost(data);
        else delete[] static_cast<std::uint8_t*>(data);
    }
    HostBytes(const HostBytes&) = delete;
    HostBytes& operator=(const HostBytes&) = delete;
    void* data = nullptr;
    std::size_t size;
    bool pinned;
};

struct Row {
    std::string what, memory;
    double gpix, fraction;
};

}  // namespace

int main(int argc, char** argv) {
    std::int64_t w = 2048, h = 2048, d = 200;
    int runs = 5;
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--size") std::sscanf(v.c_str(), "%ldx%ldx%ld", &w, &h, &d);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    try {
        if (fm::cuda_devices().empty())
            throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        const std::size_t bytes = static_cast<std::size_t>(w * h * d) * 2;
        const double pixels = static_cast<double>(w) * h * d;
        std::printf("device: %s; u16 stack %ldx%ldx%ld (%.2f GB each way); %d runs\n",
                    fm::cuda_devices()[0].name.c_str(), w, h, d, bytes / 1e9, runs);

        // The transfer limit: the whole stack up and down at once, pinned, on two streams.
        HostBytes up(bytes, true), down(bytes, true);
        void *d_in = nullptr, *d_out = nullptr;
        check(cudaMalloc(&d_in, bytes), "cudaMalloc");
        check(cudaMalloc(&d_out, bytes), "cudaMalloc");
        cudaStream_t s1, s2;
        check(cudaStreamCreate(&s1), "cudaStreamCreate");
        check(cudaStreamCreate(&s2), "cudaStreamCreate");
        const double both_ms = median_ms([&] {
            check(cudaMemcpyAsync(d_in, up.data, bytes, cudaMemcpyHostToDevice, s1), "upload");
            check(cudaMemcpyAsync(down.data, d_out, bytes, cudaMemcpyDeviceToHost, s2), "download");
            check(cudaStreamSynchronize(s1), "sync");
            check(cudaStreamSynchronize(s2), "sync");
        }, runs);
        const double up_ms = median_ms([&] {
            check(cudaMemcpyAsync(d_in, up.data, bytes, cudaMemcpyHostToDevice, s1), "upload");
            check(cudaStreamSynchronize(s1), "sync");
        }, runs);
        const double down_ms = median_ms([&] {
            check(cudaMemcpyAsync(down.data, d_out, bytes, cudaMemcpyDeviceToHost, s2), "download");
            check(cudaStreamSynchronize(s2), "sync");
        }, runs);
        cudaFree(d_in);
        cudaFree(d_out);
        const double limit_gpix = pixels / both_ms / 1e6;
        std::printf("pinned H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s -> limit %.2f Gpix/s\n",
                    bytes / up_ms / 1e6, bytes / down_ms / 1e6, 2.0 * bytes / both_ms / 1e6, limit_gpix);

        std::vector<Row> rows;
        for (bool pinned : {true, false}) {
            HostBytes src(bytes, pinned), dst(bytes, pinned);
            std::mt19937 rng(1);
            auto* px = static_cast<std::uint16_t*>(src.data);
            std::uint16_t v = 30000;
            for (std::size_t i = 0; i < bytes / 2; ++i) px[i] = v = static_cast<std::uint16_t>(v + rng() % 201 - 100);
            const fm::ConstImageView in = fm::view(static_cast<const std::uint16_t*>(src.data), w, h, d);
            const fm::ImageView out = fm::view(static_cast<std::uint16_t*>(dst.data), w, h, d);
            const char* memory = pinned ? "pinned" : "pageable";
            for (int k : {3, 7}) {
                fm::MedianOptions o;
                o.window = fm::Window::square(k);
                o.backend = fm::Backend::cuda;
                const double ms = median_ms([&] { fm::median2d(in, out, o); }, runs);
                rows.push_back({"median " + std::to_string(k) + "x" + std::to_string(k), memory,
                                pixels / ms / 1e6, pixels / ms / 1e6 / limit_gpix});
            }
            fm::TemporalOptions t;
            t.window = 50;
            t.backend = fm::Backend::cuda;
            const double ms = median_ms([&] { fm::temporal_median(in, out, t); }, runs);
            rows.push_back({"temporal N=50", memory, pixels / ms / 1e6, pixels / ms / 1e6 / limit_gpix});
            for (std::size_t i = rows.size() - 3; i < rows.size(); ++i)
                std::printf("%-14s %-9s %7.2f Gpix/s  %5.1f%% of the transfer limit\n",
                            rows[i].what.c_str(), rows[i].memory.c_str(), rows[i].gpix,
                            100 * rows[i].fraction);
            std::fflush(stdout);
        }
        if (!json.empty()) {
            std::ofstream out(json);
            out << "{\"limit_gpix_per_s\": " << limit_gpix << ", \"h2d_gb_per_s\": " << bytes / up_ms / 1e6
                << ", \"d2h_gb_per_s\": " << bytes / down_ms / 1e6 << ", \"both_gb_per_s\": "
                << 2.0 * bytes / both_ms / 1e6 << ", \"rows\": [\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << "  {\"case\": \"" << rows[i].what << "\", \"memory\": \"" << rows[i].memory
                    << "\", \"gpix_per_s\": " << rows[i].gpix << ", \"fraction\": " << rows[i].fraction
                    << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
            out << "]}\n";
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_pipeline: %s\n", e.what());
        return 1;
    }
}
