// End-to-end throughput from host memory (issue 8): a stack in host memory filtered by the
// CUDA backend and written back to host memory, beside the transfer limit measured in the same
// run: the whole stack uploaded and downloaded at once on two streams from pinned memory
// (bytes in + bytes out over the time both take together).
//
//   fastmedian_bench_pipeline [--size 2048x2048x200] [--runs 5] [--devices N] [--json FILE]
//
// Stack: u16, mirror-tiled random-walk texture (values need not be real: the transfers and
// kernels take the same time). Cases: median 3x3, 7x7 and 21x21, the separable background of
// 65 (the last two bound by their kernels, not the transfers), temporal median N = 50, 3D
// median 3x3x3 and 5x5x5 (the stack as a volume); each from
// pinned host buffers (cudaMallocHost) and from pageable ones (what a Java array or a TIFF read
// into a std::vector is). Figures: the median of `runs` wall-clock times after a warm-up call,
// as output Gpix/s and as a fraction of the transfer limit's Gpix/s. With several devices
// (--devices N, default every one present) the medians run again spread over 2, 4, ... and N
// devices, beside the transfer limit of those devices at once and the speed-up over one.
//
// Pageable memory is staged through pinned buffers by the CPU cores (plane_pipeline.cpp): every
// pixel is copied twice by a core (in and out) besides the two DMA transfers, so the host's
// memory, not the PCIe links, can bound it. The run measures that limit too: every core copying
// the stack between two pageable buffers with streaming stores, as the staging does.
#include <cuda_runtime_api.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
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
    int devices;
    double gpix, fraction;
};

struct Transfer {
    double both_ms, h2d_gb_per_s, d2h_gb_per_s, both_gb_per_s;
};

// Moving `up` to `devices` devices and `down` back at once, each device taking its share of the
// bytes on two streams (pinned memory, device buffers of their own): median times.
Transfer transfer(const HostBytes& up, const HostBytes& down, int devices, int runs) {
    struct Lane {
        void *in = nullptr, *out = nullptr;
        cudaStream_t s1 = nullptr, s2 = nullptr;
        std::size_t offset = 0, size = 0;
    };
    std::vector<Lane> lanes(static_cast<std::size_t>(devices));
    const std::size_t share = (up.size / devices + 4095) / 4096 * 4096;
    for (int i = 0; i < devices; ++i) {
        Lane& l = lanes[static_cast<std::size_t>(i)];
        check(cudaSetDevice(i), "cudaSetDevice");
        l.offset = std::min(up.size, share * i);
        l.size = std::min(share, up.size - l.offset);
        check(cudaMalloc(&l.in, l.size), "cudaMalloc");
        check(cudaMalloc(&l.out, l.size), "cudaMalloc");
        check(cudaStreamCreate(&l.s1), "cudaStreamCreate");
        check(cudaStreamCreate(&l.s2), "cudaStreamCreate");
    }
    auto copies = [&](bool h2d, bool d2h) {
        for (Lane& l : lanes) {
            if (h2d)
                check(cudaMemcpyAsync(l.in, static_cast<char*>(up.data) + l.offset, l.size,
                                      cudaMemcpyHostToDevice, l.s1), "upload");
            if (d2h)
                check(cudaMemcpyAsync(static_cast<char*>(down.data) + l.offset, l.out, l.size,
                                      cudaMemcpyDeviceToHost, l.s2), "download");
        }
        for (Lane& l : lanes) {
            check(cudaStreamSynchronize(l.s1), "sync");
            check(cudaStreamSynchronize(l.s2), "sync");
        }
    };
    const double both = median_ms([&] { copies(true, true); }, runs);
    const double in = median_ms([&] { copies(true, false); }, runs);
    const double out = median_ms([&] { copies(false, true); }, runs);
    const Transfer t{both, up.size / in / 1e6, up.size / out / 1e6, 2.0 * up.size / both / 1e6};
    std::printf("%d GPU: pinned H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s -> limit %.2f Gpix/s\n",
                devices, t.h2d_gb_per_s, t.d2h_gb_per_s, t.both_gb_per_s, up.size / 2.0 / both / 1e6);
    for (Lane& l : lanes) {
        cudaFree(l.in);
        cudaFree(l.out);
        cudaStreamDestroy(l.s1);
        cudaStreamDestroy(l.s2);
    }
    check(cudaSetDevice(0), "cudaSetDevice");
    return t;
}


// Copies n bytes as the staging does: streaming stores where the CPU has them.
void stream_copy(char* dst, const char* src, std::size_t n) {
#if defined(__x86_64__)
    std::size_t i = 0;
    for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 15) != 0; ++i) dst[i] = src[i];
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 64; j += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + j),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + j)));
    for (; i < n; ++i) dst[i] = src[i];
    _mm_sfence();
#else
    std::memcpy(dst, src, n);
#endif
}

// The host's copy rate (GB/s copied; each byte read once and written once): every core copying
// its share of `from` into `to`, both pageable. The staged pipeline copies each pixel twice on
// the host, so a u16 stack cannot pass copy / 4 Gpix/s from pageable memory on any number of
// GPUs (less, since the DMA transfers use the same memory).
double host_copy_gb_per_s(const HostBytes& from, const HostBytes& to, int runs) {
    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const auto* src = static_cast<const char*>(from.data);
    auto* dst = static_cast<char*>(to.data);
    const double ms = median_ms([&] {
        std::vector<std::thread> pool;
        const std::size_t share = (from.size / threads + 4095) / 4096 * 4096;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                const std::size_t a = std::min(from.size, share * t), b = std::min(from.size, a + share);
                stream_copy(dst + a, src + a, b - a);
            });
        for (std::thread& t : pool) t.join();
    }, runs);
    const double gb = from.size / ms / 1e6;
    std::printf("host copy, %d threads, pageable to pageable: %.1f GB/s -> staged limit %.2f Gpix/s\n",
                threads, gb, gb / 4);
    return gb;
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t w = 2048, h = 2048, d = 200;
    int runs = 5, devices = 0;  // 0: every device present
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--size") std::sscanf(v.c_str(), "%ldx%ldx%ld", &w, &h, &d);
        else if (a == "--runs") runs = std::stoi(v);
        else if (a == "--json") json = v;
        else if (a == "--devices") devices = std::stoi(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    try {
        if (fm::cuda_devices().empty())
            throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        const int present = static_cast<int>(fm::cuda_devices().size());
        if (devices == 0 || devices > present) devices = present;
        const std::size_t bytes = static_cast<std::size_t>(w * h * d) * 2;
        const double pixels = static_cast<double>(w) * h * d;
        std::printf("device: %s; u16 stack %ldx%ldx%ld (%.2f GB each way); %d runs\n",
                    fm::cuda_devices()[0].name.c_str(), w, h, d, bytes / 1e9, runs);

        // The transfer limit: the whole stack up and down at once, pinned, on two streams of
        // each device, every device taking its share of the planes.
        HostBytes up(bytes, true), down(bytes, true);
        const Transfer one = transfer(up, down, 1, runs);
        const double limit_gpix = pixels / one.both_ms / 1e6;
        std::vector<Row> rows;
        double host_copy = 0;
        for (bool pinned : {true, false}) {
            HostBytes src(bytes, pinned), dst(bytes, pinned);
            std::mt19937 rng(1);
            auto* px = static_cast<std::uint16_t*>(src.data);
            std::uint16_t v = 30000;
            for (std::size_t i = 0; i < bytes / 2; ++i) px[i] = v = static_cast<std::uint16_t>(v + rng() % 201 - 100);
            const fm::ConstImageView in = fm::view(static_cast<const std::uint16_t*>(src.data), w, h, d);
            const fm::ImageView out = fm::view(static_cast<std::uint16_t*>(dst.data), w, h, d);
            const char* memory = pinned ? "pinned" : "pageable";
            const std::size_t first = rows.size();
            // The medians, and a background bound by its kernel, on the devices `on`.
            auto filters = [&](const std::vector<int>& on, double limit) {
                auto add = [&](const std::string& what, const std::function<void()>& call) {
                    const double gpix = pixels / median_ms(call, runs) / 1e6;
                    rows.push_back({what, memory, static_cast<int>(on.size()), gpix, gpix / limit});
                };
                for (int k : {3, 7, 21}) {
                    fm::MedianOptions o;
                    o.window = fm::Window::square(k);
                    o.backend = fm::Backend::cuda;
                    o.devices = on;
                    add("median " + std::to_string(k) + "x" + std::to_string(k), [&] { fm::median2d(in, out, o); });
                }
                fm::BackgroundOptions b;
                b.window = fm::Window::square(65);
                b.method = fm::BackgroundMethod::separable;
                b.backend = fm::Backend::cuda;
                b.devices = on;
                add("background 65 sep", [&] { fm::background(in, out, b); });
            };
            filters({0}, limit_gpix);
            fm::TemporalOptions t;
            t.window = 50;
            t.backend = fm::Backend::cuda;
            const double ms = median_ms([&] { fm::temporal_median(in, out, t); }, runs);
            rows.push_back({"temporal N=50", memory, 1, pixels / ms / 1e6, pixels / ms / 1e6 / limit_gpix});
            for (int k : {3, 5}) {
                fm::Median3DOptions m;
                m.window = fm::Window3D::box(k);
                m.backend = fm::Backend::cuda;
                const double gpix = pixels / median_ms([&] { fm::median3d(in, out, m); }, runs) / 1e6;
                const std::string n = std::to_string(k);
                rows.push_back({"median3d " + n + "x" + n + "x" + n, memory, 1, gpix, gpix / limit_gpix});
            }
            if (!pinned) host_copy = host_copy_gb_per_s(src, dst, runs);
            for (int n = 2; n / 2 < devices; n *= 2) {  // 2, 4, ... and every device
                const int on = std::min(n, devices);
                std::vector<int> some;
                for (int i = 0; i < on; ++i) some.push_back(i);
                filters(some, pixels / transfer(up, down, on, runs).both_ms / 1e6);
            }
            for (std::size_t i = first; i < rows.size(); ++i) {
                std::printf("%-17s %-9s %d GPU %7.2f Gpix/s  %5.1f%% of the transfer limit",
                            rows[i].what.c_str(), rows[i].memory.c_str(), rows[i].devices, rows[i].gpix,
                            100 * rows[i].fraction);
                if (rows[i].devices > 1)  // the same case on one device came first
                    for (std::size_t j = first; j < i; ++j)
                        if (rows[j].what == rows[i].what && rows[j].devices == 1)
                            std::printf("  %.2fx one GPU", rows[i].gpix / rows[j].gpix);
                std::printf("\n");
            }
            std::fflush(stdout);
        }
        if (!json.empty()) {
            std::ofstream out(json);
            out << "{\"limit_gpix_per_s\": " << limit_gpix << ", \"h2d_gb_per_s\": " << one.h2d_gb_per_s
                << ", \"d2h_gb_per_s\": " << one.d2h_gb_per_s << ", \"both_gb_per_s\": " << one.both_gb_per_s
                << ", \"host_copy_gb_per_s\": " << host_copy << ", \"rows\": [\n";
            for (std::size_t i = 0; i < rows.size(); ++i)
                out << "  {\"case\": \"" << rows[i].what << "\", \"memory\": \"" << rows[i].memory
                    << "\", \"devices\": " << rows[i].devices << ", \"gpix_per_s\": " << rows[i].gpix << ", \"fraction\": " << rows[i].fraction
                    << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
            out << "]}\n";
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fastmedian_bench_pipeline: %s\n", e.what());
        return 1;
    }
}
