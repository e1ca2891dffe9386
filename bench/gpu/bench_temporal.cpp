// GPU temporal-median throughput: fastmedian::temporal_median on a device-resident movie
// (default 512 frames of 2048 x 2048 u16, made on the GPU from the real plane in
// bench/gpu/images: temporal_stack.hpp), beside, in the same run, the identity kernel over the
// same stack bytes and a plain per-pixel sort on the GPU (sort_temporal_kernel.cu); then the
// host-memory path (Memory::host views of the same movie, transfers included).
//
//   fastmedian_bench_temporal_gpu [--images bench/gpu/images] [--n 9,50,500] [--frames 512]
//       [--size 2048] [--runs 5] [--types u16[,u8,f32]] [--json FILE] [--crop 256]
//       [--host-frames F (default: --frames; 0: skip the host path)]
//       [--host-memory pinned,pageable] [--mode median|subtract] [--offset 0]
//       [--sort-budget-ms 400]
//
// Gpix/s counts output pixels (width x height x output frames). Device figures are the median
// over `runs` timed calls (CUDA events) after warm-up; host-path figures the median of at most
// 3 calls (wall clock, the call returns once the output is in host memory). The per-pixel sort
// is timed on a run of output frames in the middle of the movie (as many as fit in
// --sort-budget-ms per call) and reported per output pixel; the table says how many.
// Before timing, every configuration is checked on a crop (crop x crop pixels, all frames)
// against the CPU backend (Backend::cpu), bit for bit: ours on the GPU, the per-pixel sort, and
// the host path; a mismatch is printed as MISMATCH, marked NO in the table and the JSON, and
// makes the exit status 1.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "fastmedian/temporal.hpp"
#include "identity_kernel.hpp"
#include "sort_temporal_kernel.hpp"
#include "temporal_base.hpp"

namespace fm = fastmedian;

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

std::vector<std::string> split(const std::string& v) {
    std::vector<std::string> out;
    for (std::size_t p = 0; p <= v.size();) {
        const std::size_t q = std::min(v.find(',', p), v.size());
        if (q > p) out.push_back(v.substr(p, q - p));
        p = q + 1;
    }
    return out;
}

fm::PixelType parse_type(const std::string& s) {
    if (s == "u8") return fm::PixelType::u8;
    if (s == "u16") return fm::PixelType::u16;
    if (s == "f32") return fm::PixelType::f32;
    throw std::runtime_error("unknown type " + s + " (u8, u16, f32)");
}

struct Args {
    std::string images = "bench/gpu/images";
    std::vector<int> ns = {9, 50, 500};
    std::int64_t frames = 512;
    std::int64_t size = 2048;
    int runs = 5;
    std::vector<fm::PixelType> types = {fm::PixelType::u16};
    std::string json;
    std::int64_t crop = 256;
    std::int64_t host_frames = -1;
    std::vector<std::string> host_memory = {"pinned", "pageable"};
    fm::TemporalMode mode = fm::TemporalMode::median;
    double offset = 0.0;
    double sort_budget_ms = 400.0;
};

Args parse(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; i += 2) {
        const std::string k = argv[i];
        if (i + 1 >= argc) throw std::runtime_error("option " + k + " needs a value");
        const std::string v = argv[i + 1];
        if (k == "--images") a.images = v;
        else if (k == "--n") {
            a.ns.clear();
            for (const std::string& s : split(v)) a.ns.push_back(std::stoi(s));
        } else if (k == "--frames") a.frames = std::stoll(v);
        else if (k == "--size") a.size = std::stoll(v);
        else if (k == "--runs") a.runs = std::max(1, std::stoi(v));
        else if (k == "--types") {
            a.types.clear();
            for (const std::string& s : split(v)) a.types.push_back(parse_type(s));
        } else if (k == "--json") a.json = v;
        else if (k == "--crop") a.crop = std::stoll(v);
        else if (k == "--host-frames") a.host_frames = std::stoll(v);
        else if (k == "--host-memory") a.host_memory = split(v);
        else if (k == "--mode") a.mode = fm::parse_temporal_mode(v);
        else if (k == "--offset") a.offset = std::stod(v);
        else if (k == "--sort-budget-ms") a.sort_budget_ms = std::stod(v);
        else throw std::runtime_error("unknown option " + k);
    }
    if (a.host_frames < 0) a.host_frames = a.frames;
    for (const std::string& m : a.host_memory)
        if (m != "pinned" && m != "pageable")
            throw std::runtime_error("--host-memory takes pinned and/or pageable");
    if (a.size < 1 || a.frames < 1 || a.frames > 65535)
        throw std::runtime_error("bad --size/--frames");
    return a;
}

struct DeviceBuffer {
    void* ptr = nullptr;
    explicit DeviceBuffer(std::size_t bytes) { check(cudaMalloc(&ptr, bytes), "cudaMalloc"); }
    ~DeviceBuffer() { cudaFree(ptr); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Host memory: pinned (cudaMallocHost) or pageable (new[], pages touched).
struct HostBuffer {
    std::uint8_t* ptr = nullptr;
    bool pinned = false;
    HostBuffer(std::size_t bytes, bool pin) : pinned(pin) {
        if (pinned) {
            void* p = nullptr;
            check(cudaMallocHost(&p, bytes), "cudaMallocHost");
            ptr = static_cast<std::uint8_t*>(p);
        } else {
            ptr = new std::uint8_t[bytes];
        }
        std::memset(ptr, 0xA5, bytes);
    }
    ~HostBuffer() {
        if (pinned) cudaFreeHost(ptr);
        else delete[] ptr;
    }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
};

template <class View, class Byte>
View stack_view(Byte* data, fm::PixelType type, std::int64_t width, std::int64_t height,
                std::int64_t row_stride, std::int64_t frames, std::int64_t plane_stride,
                fm::Memory memory) {
    View v;
    v.data = data;
    v.type = type;
    v.width = width;
    v.height = height;
    v.planes = frames;
    v.row_stride = row_stride;
    v.plane_stride = plane_stride;
    v.memory = memory;
    return v;
}

// Median milliseconds per call over `runs` batches (CUDA events on `stream`), after warm-up.
double time_ms(const std::function<void()>& call, cudaStream_t stream, int runs) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    call();  // warm-up
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    call();
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float one = 0;
    cudaEventElapsedTime(&one, start, stop);
    const int batch = std::clamp(static_cast<int>(2.0f / std::max(one, 1e-3f)), 1, 50);
    if (one > 1000.0f) runs = std::min(runs, 3);  // very slow configurations: fewer runs
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
    check(cudaGetLastError(), "timed call");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    return ms[ms.size() / 2];
}

// Median wall-clock seconds of `runs` calls after one warm-up (synchronous calls).
double time_host_s(const std::function<void()>& call, int runs) {
    call();
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        call();
        t.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    return t[t.size() / 2];
}

// The crop (top-left c x c pixels, all `frames` frames) of a dense device stack of
// size x size frames, as a dense host stack.
std::vector<std::uint8_t> download_crop(const void* dev, std::int64_t size, std::int64_t frames,
                                        std::int64_t c, std::size_t px) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(c * c * frames) * px);
    for (std::int64_t z = 0; z < frames; ++z)
        check(cudaMemcpy2D(out.data() + static_cast<std::size_t>(z * c * c) * px, c * px,
                           static_cast<const std::uint8_t*>(dev) +
                               static_cast<std::size_t>(z * size * size) * px,
                           size * px, c * px, static_cast<std::size_t>(c), cudaMemcpyDeviceToHost),
              "download crop");
    return out;
}

// The same crop of a dense host stack.
std::vector<std::uint8_t> host_crop(const std::uint8_t* src, std::int64_t size,
                                    std::int64_t frames, std::int64_t c, std::size_t px) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(c * c * frames) * px);
    for (std::int64_t z = 0; z < frames; ++z)
        for (std::int64_t y = 0; y < c; ++y)
            std::memcpy(out.data() + static_cast<std::size_t>((z * c + y) * c) * px,
                        src + static_cast<std::size_t>((z * size + y) * size) * px,
                        static_cast<std::size_t>(c) * px);
    return out;
}

// Describes where two dense crops first differ ("" when equal).
std::string first_difference(const std::vector<std::uint8_t>& want,
                             const std::vector<std::uint8_t>& got, std::int64_t c,
                             std::size_t px) {
    if (want.size() != got.size()) return "sizes differ";
    if (std::memcmp(want.data(), got.data(), want.size()) == 0) return "";
    std::size_t differing = 0, first = want.size();
    for (std::size_t i = 0; i < want.size() / px; ++i)
        if (std::memcmp(&want[i * px], &got[i * px], px) != 0) {
            if (first == want.size()) first = i;
            ++differing;
        }
    auto value = [&](const std::vector<std::uint8_t>& v, std::size_t i) {
        std::ostringstream s;
        if (px == 1) s << static_cast<int>(v[i]);
        else if (px == 2) { std::uint16_t u; std::memcpy(&u, &v[i * 2], 2); s << u; }
        else { float f; std::memcpy(&f, &v[i * 4], 4); s << f; }
        return s.str();
    };
    const std::int64_t i = static_cast<std::int64_t>(first);
    std::ostringstream s;
    s << differing << " of " << want.size() / px << " pixels differ; first at x=" << i % c
      << " y=" << (i / c) % c << " t=" << i / (c * c) << ": CPU backend " << value(want, first)
      << ", this " << value(got, first);
    return s.str();
}

struct Row {
    std::string type, method;
    int n;
    std::int64_t frames, timed_frames, size;
    double gpix;
    int exact;  // 1 equal to the CPU backend on the crop, 0 not, -1 not checked
    std::string note;
};

std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        o += ch;
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<Row> rows;
    bool mismatch = false, failure = false;
    std::string json;
    try {
        const Args args = parse(argc, argv);
        json = args.json;
        if (fm::cuda_devices().empty())
            throw std::runtime_error("no CUDA device: " + fm::cuda_unavailable_reason());
        const std::int64_t S = args.size, T = args.frames, C = std::min(args.crop, S);
        const double out_pix = static_cast<double>(S) * S;
        std::printf("device: %s; temporal median of %ld frames of %ldx%ld, mode %s; %d runs; "
                    "checks on a %ldx%ld crop x %ld frames against the CPU backend\n",
                    fm::cuda_devices()[0].name.c_str(), T, S, S, fm::temporal_mode_name(args.mode),
                    args.runs, C, C, T);
        cudaStream_t stream;
        check(cudaStreamCreate(&stream), "cudaStreamCreate");
        auto failed = [&](const std::string& what, const char* why) {
            std::printf("!!! FAILED: %s: %s\n", what.c_str(), why);
            std::fflush(stdout);
            failure = true;
        };
        auto add = [&](Row r) {
            std::printf("  %-4s %-22s N=%-4d %10.3f Gpix/s  exact %-3s %s\n", r.type.c_str(),
                        r.method.c_str(), r.n, r.gpix, r.exact < 0 ? "-" : (r.exact ? "yes" : "NO"),
                        r.note.c_str());
            std::fflush(stdout);
            rows.push_back(std::move(r));
        };
        auto verdict = [&](const std::string& what, const std::string& diff) {
            if (diff.empty()) return 1;
            std::printf("!!! MISMATCH: %s differs from the CPU backend: %s\n", what.c_str(),
                        diff.c_str());
            mismatch = true;
            return 0;
        };

        for (fm::PixelType type : args.types) {
            const std::string tn = fm::pixel_type_name(type);
            const std::size_t px = fm::pixel_size(type);
            const std::size_t plane_bytes = static_cast<std::size_t>(S * S) * px;
            const std::size_t stack_bytes = plane_bytes * static_cast<std::size_t>(T);

            // The movie, made on the GPU.
            std::string source;
            const bench::HostImage base = bench::temporal_base(args.images, type, S, source);
            std::vector<int> dx, dy;
            bench::stack_shifts(T, dx, dy);
            DeviceBuffer d_src(stack_bytes), d_dst(stack_bytes);
            {
                DeviceBuffer d_base(base.bytes.size()), d_dx(T * sizeof(int)),
                    d_dy(T * sizeof(int));
                check(cudaMemcpy(d_base.ptr, base.bytes.data(), base.bytes.size(),
                                 cudaMemcpyHostToDevice), "upload base");
                check(cudaMemcpy(d_dx.ptr, dx.data(), T * sizeof(int), cudaMemcpyHostToDevice),
                      "dx");
                check(cudaMemcpy(d_dy.ptr, dy.data(), T * sizeof(int), cudaMemcpyHostToDevice),
                      "dy");
                check(bench::launch_make_stack(type, d_base.ptr, d_src.ptr, S, T,
                                               static_cast<const int*>(d_dx.ptr),
                                               static_cast<const int*>(d_dy.ptr), stream),
                      "make stack");
                check(cudaStreamSynchronize(stream), "make stack");
            }
            std::printf("%s: %ld frames of %ldx%ld (%.2f GiB) from %s, drifting up to %ld px, "
                        "with noise and blinks\n", tn.c_str(), T, S, S,
                        static_cast<double>(stack_bytes) / (1 << 30), source.c_str(),
                        bench::kStackMargin / 2);
            const auto src_dev = stack_view<fm::ConstImageView>(
                static_cast<const std::uint8_t*>(d_src.ptr), type, S, S, S * px, T,
                static_cast<std::int64_t>(plane_bytes), fm::Memory::cuda);
            const auto dst_dev = stack_view<fm::ImageView>(
                static_cast<std::uint8_t*>(d_dst.ptr), type, S, S, S * px, T,
                static_cast<std::int64_t>(plane_bytes), fm::Memory::cuda);

            // (a) the identity kernel over the same bytes.
            {
                const std::size_t bytes = stack_bytes / 16 * 16;
                const double ms = time_ms([&] {
                    check(bench::launch_identity(d_src.ptr, d_dst.ptr, bytes, stream), "identity");
                }, stream, args.runs);
                add({tn, "identity", 0, T, T, S, out_pix * T / ms / 1e6, -1, "copy of the stack"});
            }

            // The crop and the CPU backend's results on it, per N (and per frame count).
            const std::vector<std::uint8_t> crop_src = download_crop(d_src.ptr, S, T, C, px);
            std::map<std::pair<int, std::int64_t>, std::vector<std::uint8_t>> cpu_results;
            auto cpu_crop = [&](int n, std::int64_t frames) -> const std::vector<std::uint8_t>& {
                auto it = cpu_results.find({n, frames});
                if (it != cpu_results.end()) return it->second;
                std::vector<std::uint8_t> out(static_cast<std::size_t>(C * C * frames) * px, 0x5A);
                fm::TemporalOptions o;
                o.window = n;
                o.mode = args.mode;
                o.offset = args.offset;
                o.backend = fm::Backend::cpu;
                const auto t0 = std::chrono::steady_clock::now();
                fm::temporal_median(
                    stack_view<fm::ConstImageView>(crop_src.data(), type, C, C, C * px, frames,
                                                   C * C * px, fm::Memory::host),
                    stack_view<fm::ImageView>(out.data(), type, C, C, C * px, frames, C * C * px,
                                              fm::Memory::host),
                    o);
                const double s =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                std::printf("  (CPU backend on the crop, N=%d, %ld frames: %.2f s, %.3f Gpix/s)\n",
                            n, frames, s, static_cast<double>(C * C * frames) / s / 1e9);
                return cpu_results.emplace(std::make_pair(n, frames), std::move(out)).first->second;
            };

            for (int n : args.ns) {
                if (n > T) {
                    std::printf("  N=%d > %ld frames: skipped\n", n, T);
                    continue;
                }
                for (std::int64_t t = 0; t < T; ++t)
                    if (bench::window_start(t, T, n) != fm::temporal_window_start(t, T, n)) {
                        std::printf("!!! MISMATCH: the benchmark's window rule differs from "
                                    "temporal_window_start at t=%ld N=%d\n", t, n);
                        mismatch = true;
                        break;
                    }
                try {
                    const std::vector<std::uint8_t>& want = cpu_crop(n, T);

                    fm::TemporalOptions o;
                    o.window = n;
                    o.mode = args.mode;
                    o.offset = args.offset;
                    o.backend = fm::Backend::cuda;
                    o.cuda_stream = stream;
                    std::string device_name;

                    // Ours, device-resident.
                    check(cudaMemsetAsync(d_dst.ptr, 0xA5, stack_bytes, stream), "memset");
                    device_name = fm::temporal_median(src_dev, dst_dev, o).device_name;
                    check(cudaStreamSynchronize(stream), "temporal_median");
                    const int ours_exact = verdict(
                        tn + " fastmedian N=" + std::to_string(n),
                        first_difference(want, download_crop(d_dst.ptr, S, T, C, px), C, px));
                    const double ms = time_ms([&] { fm::temporal_median(src_dev, dst_dev, o); },
                                              stream, args.runs);
                    add({tn, "fastmedian", n, T, T, S, out_pix * T / ms / 1e6, ours_exact,
                         "device-resident on " + device_name});

                    // (b) the plain per-pixel sort on the GPU (median mode only).
                    if (args.mode != fm::TemporalMode::median) {
                        std::printf("  (per-pixel sort: median mode only, skipped)\n");
                    } else if (n > bench::kSortTemporalMaxWindow) {
                        std::printf("  (per-pixel sort: N > %d, skipped)\n",
                                    bench::kSortTemporalMaxWindow);
                    } else {
                        check(cudaMemsetAsync(d_dst.ptr, 0xA5, stack_bytes, stream), "memset");
                        check(bench::launch_sort_temporal(type, d_src.ptr, d_dst.ptr, C, C, S,
                                                          S * S, T, n, 0, T, stream),
                              "sort crop");
                        check(cudaStreamSynchronize(stream), "sort crop");
                        const int sort_exact = verdict(
                            tn + " per-pixel sort N=" + std::to_string(n),
                            first_difference(want, download_crop(d_dst.ptr, S, T, C, px), C, px));
                        // One output frame in the middle, then as many as fit in the budget.
                        const std::int64_t mid = T / 2;
                        const double one_ms = time_ms([&] {
                            check(bench::launch_sort_temporal(type, d_src.ptr, d_dst.ptr, S, S, S,
                                                              S * S, T, n, mid, mid + 1, stream),
                                  "sort");
                        }, stream, 1);
                        const std::int64_t f = std::clamp<std::int64_t>(
                            static_cast<std::int64_t>(args.sort_budget_ms / std::max(one_ms, 1e-3)),
                            1, T);
                        const std::int64_t t0 = std::clamp<std::int64_t>(mid - f / 2, 0, T - f);
                        const double sort_ms = time_ms([&] {
                            check(bench::launch_sort_temporal(type, d_src.ptr, d_dst.ptr, S, S, S,
                                                              S * S, T, n, t0, t0 + f, stream),
                                  "sort");
                        }, stream, args.runs);
                        add({tn, "sort-gpu", n, T, f, S, out_pix * f / sort_ms / 1e6, sort_exact,
                             f < T ? "timed on " + std::to_string(f) + " of " + std::to_string(T) +
                                         " output frames"
                                   : std::string("all frames")});
                    }
                } catch (const std::exception& e) {
                    failed(tn + " N=" + std::to_string(n), e.what());
                }
            }

            // The host-memory path: Memory::host views, transfers included.
            const std::int64_t TH = std::min(args.host_frames, T);
            if (TH > 0) {
                const std::size_t host_bytes = plane_bytes * static_cast<std::size_t>(TH);
                for (const std::string& kind : args.host_memory) {
                    std::unique_ptr<HostBuffer> h_src, h_dst;
                    try {
                        h_src = std::make_unique<HostBuffer>(host_bytes, kind == "pinned");
                        h_dst = std::make_unique<HostBuffer>(host_bytes, kind == "pinned");
                    } catch (const std::exception& e) {
                        std::printf("  host path (%s): cannot allocate 2 x %.2f GiB: %s; skipped\n",
                                    kind.c_str(), static_cast<double>(host_bytes) / (1 << 30),
                                    e.what());
                        continue;
                    }
                    check(cudaMemcpy(h_src->ptr, d_src.ptr, host_bytes, cudaMemcpyDeviceToHost),
                          "download stack");
                    const auto src_host = stack_view<fm::ConstImageView>(
                        h_src->ptr, type, S, S, S * px, TH, static_cast<std::int64_t>(plane_bytes),
                        fm::Memory::host);
                    const auto dst_host = stack_view<fm::ImageView>(
                        h_dst->ptr, type, S, S, S * px, TH, static_cast<std::int64_t>(plane_bytes),
                        fm::Memory::host);
                    for (int n : args.ns) {
                        if (n > TH) continue;
                        try {
                            fm::TemporalOptions o;
                            o.window = n;
                            o.mode = args.mode;
                            o.offset = args.offset;
                            o.backend = fm::Backend::cuda;
                            fm::temporal_median(src_host, dst_host, o);
                            const int exact = verdict(
                                tn + " host path (" + kind + ") N=" + std::to_string(n),
                                first_difference(cpu_crop(n, TH),
                                                 host_crop(h_dst->ptr, S, TH, C, px), C, px));
                            const double s =
                                time_host_s([&] { fm::temporal_median(src_host, dst_host, o); },
                                            std::min(args.runs, 3));
                            char note[160];
                            std::snprintf(note, sizeof note,
                                          "%s host memory, %ld frames (%.2f GiB each way), "
                                          "transfers included",
                                          kind.c_str(), TH,
                                          static_cast<double>(host_bytes) / (1 << 30));
                            add({tn, "fastmedian-host-" + kind, n, TH, TH, S,
                                 out_pix * TH / s / 1e9, exact, note});
                        } catch (const std::exception& e) {
                            failed(tn + " host path (" + kind + ") N=" + std::to_string(n),
                                   e.what());
                        }
                    }
                }
            }
        }
        cudaStreamDestroy(stream);
    } catch (const std::exception& e) {
        std::printf("!!! FAILED: %s\n", e.what());
        std::fprintf(stderr, "fastmedian_bench_temporal_gpu: %s\n", e.what());
        failure = true;
    }

    std::printf("\n%-4s %-24s %5s %12s %6s  %s\n", "type", "method", "N", "Gpix/s", "exact",
                "note");
    for (const Row& r : rows)
        std::printf("%-4s %-24s %5d %12.3f %6s  %s\n", r.type.c_str(), r.method.c_str(), r.n,
                    r.gpix, r.exact < 0 ? "-" : (r.exact ? "yes" : "NO"), r.note.c_str());
    for (const Row& r : rows) {
        if (r.method != "fastmedian") continue;
        for (const Row& b : rows)
            if (b.method == "sort-gpu" && b.type == r.type && b.n == r.n)
                std::printf("%s N=%d: fastmedian / per-pixel sort on the GPU = %.1fx\n",
                            r.type.c_str(), r.n, r.gpix / b.gpix);
    }
    if (mismatch)
        std::printf("\n!!! SOME RESULTS DIFFER FROM THE CPU BACKEND (see MISMATCH above)\n");
    if (!json.empty()) {
        std::ofstream out(json);
        out << "[\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            out << "  {\"type\": \"" << r.type << "\", \"method\": \"" << r.method
                << "\", \"n\": " << r.n << ", \"frames\": " << r.frames
                << ", \"timed_frames\": " << r.timed_frames << ", \"size\": " << r.size
                << ", \"gpix_per_s\": " << r.gpix << ", \"exact\": "
                << (r.exact < 0 ? "null" : (r.exact ? "true" : "false")) << ", \"note\": \""
                << json_escape(r.note) << "\"}" << (i + 1 < rows.size() ? ",\n" : "\n");
        }
        out << "]\n";
    }
    if (failure) std::printf("\n!!! SOME CONFIGURATIONS FAILED (see FAILED above)\n");
    return mismatch || failure ? 1 : 0;
}
