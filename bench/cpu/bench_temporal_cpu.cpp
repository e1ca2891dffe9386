// CPU temporal-median throughput: fastmedian::temporal_median with Backend::cpu on a movie
// (default 512 frames of 2048 x 2048 u16, made from the real plane in bench/gpu/images as the
// GPU temporal benchmark makes it: ../gpu/temporal_stack.hpp), beside a plain per-pixel sort
// on the same machine: per pixel, the window's N values copied out and std::sort'ed (and, as a
// second baseline, std::nth_element'ed), the element of rank (N-1)/2 taken, over `threads`
// std::threads splitting the rows.
//
//   fastmedian_bench_temporal_cpu [--images bench/gpu/images] [--n 9,50,500] [--frames 512]
//       [--size 2048] [--runs 3] [--types u16[,u8,f32]] [--threads T] [--sort-budget-s 2]
//       [--json FILE]
//
// Gpix/s counts output pixels. Ours: the whole movie, the median of `runs` calls after one
// warm-up (when that first call takes over 4 s, it is the measurement); the library uses all
// hardware threads. The baselines would take far too long on the whole movie (a 500-value
// std::sort costs ~10 us per output pixel), so each is timed on a sample: evenly spaced rows (a
// multiple of the thread count) x a run of output frames in the middle of the movie, as many as
// fit in --sort-budget-s (after a short calibration), and reported per output pixel; the output
// says which sample. The baselines' outputs are compared with ours bit for bit (a MISMATCH is
// printed loudly, marked NO, and makes the exit status 1; so does a configuration that throws).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "fastmedian/temporal.hpp"
#include "temporal_base.hpp"
#include "temporal_stack.hpp"

namespace fm = fastmedian;

namespace {

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
    int runs = 3;
    std::vector<fm::PixelType> types = {fm::PixelType::u16};
    int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    double sort_budget_s = 2.0;
    std::string json;
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
        } else if (k == "--threads") a.threads = std::max(1, std::stoi(v));
        else if (k == "--sort-budget-s") a.sort_budget_s = std::stod(v);
        else if (k == "--json") a.json = v;
        else throw std::runtime_error("unknown option " + k);
    }
    if (a.size < 1 || a.frames < 1) throw std::runtime_error("bad --size/--frames");
    return a;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Calls body(i) for i in [0, count) on `threads` threads, i = thread, thread + threads, ...
void parallel_rows(std::int64_t count, int threads, const std::function<void(std::int64_t)>& body) {
    std::vector<std::thread> pool;
    for (int th = 0; th < threads; ++th)
        pool.emplace_back([&, th] {
            for (std::int64_t i = th; i < count; i += threads) body(i);
        });
    for (std::thread& t : pool) t.join();
}

// The movie, as temporal_stack.hpp defines it: frames filled in parallel.
template <class T>
void fill_stack(const bench::HostImage& base, std::int64_t size, std::int64_t frames, T* dst,
                int threads) {
    std::vector<int> dx, dy;
    bench::stack_shifts(frames, dx, dy);
    const T* b = reinterpret_cast<const T*>(base.bytes.data());
    parallel_rows(frames, threads, [&](std::int64_t z) {
        T* plane = dst + z * size * size;
        for (std::int64_t y = 0; y < size; ++y)
            for (std::int64_t x = 0; x < size; ++x)
                plane[y * size + x] = bench::stack_pixel(b, base.width, x, y, z,
                                                         dx[static_cast<std::size_t>(z)],
                                                         dy[static_cast<std::size_t>(z)]);
    });
}

// A sample of the output: rows[i] x output frames [t0, t1), all columns.
struct Sample {
    std::vector<std::int64_t> rows;
    std::int64_t t0 = 0, t1 = 0;
    std::int64_t outputs(std::int64_t width) const {
        return static_cast<std::int64_t>(rows.size()) * (t1 - t0) * width;
    }
};

Sample make_sample(std::int64_t height, std::int64_t frames, std::int64_t nrows,
                   std::int64_t nframes) {
    Sample s;
    nrows = std::clamp<std::int64_t>(nrows, 1, height);
    nframes = std::clamp<std::int64_t>(nframes, 1, frames);
    for (std::int64_t i = 0; i < nrows; ++i) s.rows.push_back((2 * i + 1) * height / (2 * nrows));
    s.t0 = std::clamp<std::int64_t>(frames / 2 - nframes / 2, 0, frames - nframes);
    s.t1 = s.t0 + nframes;
    return s;
}

// The plain per-pixel baseline on a sample: per row, the needed frames of that row gathered
// into one time series per pixel (keys, cache-friendly), then per pixel and output frame the N
// window keys copied out and sorted (std::sort) or selected (std::nth_element). Writes
// out[(i * frames + (t - t0)) * width + x] for sampled row i.
template <class T>
void per_pixel_sort(const T* src, std::int64_t width, std::int64_t height, std::int64_t frames,
                    int n, const Sample& sample, bool use_sort, T* out, int threads) {
    using Key = bench::SortKey<T>;
    using K = typename Key::type;
    const std::int64_t nt = sample.t1 - sample.t0;
    const std::int64_t a = bench::window_start(sample.t0, frames, n);
    const std::int64_t len = bench::window_start(sample.t1 - 1, frames, n) + n - a;
    const std::size_t rank = static_cast<std::size_t>((n - 1) / 2);
    parallel_rows(static_cast<std::int64_t>(sample.rows.size()), threads, [&](std::int64_t i) {
        const std::int64_t y = sample.rows[static_cast<std::size_t>(i)];
        std::vector<K> series(static_cast<std::size_t>(width * len));
        for (std::int64_t z = 0; z < len; ++z) {
            const T* row = src + ((a + z) * height + y) * width;
            for (std::int64_t x = 0; x < width; ++x)
                series[static_cast<std::size_t>(x * len + z)] = Key::to(row[x]);
        }
        std::vector<K> w(static_cast<std::size_t>(n));
        for (std::int64_t x = 0; x < width; ++x) {
            const K* px = series.data() + x * len;
            for (std::int64_t t = sample.t0; t < sample.t1; ++t) {
                const K* first = px + (bench::window_start(t, frames, n) - a);
                std::copy(first, first + n, w.begin());
                if (use_sort) std::sort(w.begin(), w.end());
                else
                    std::nth_element(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(rank),
                                     w.end());
                out[(i * nt + (t - sample.t0)) * width + x] = Key::from(w[rank]);
            }
        }
    });
    (void)height;
}

struct Row {
    std::string type, method;
    int n;
    double gpix;
    int exact;  // 1 / 0 / -1 (not checked)
    int threads;
    std::string note;
    double sample = 1.0;  // the fraction of the output pixels timed
};

template <class T>
void run_n(const Args& args, fm::PixelType type, int n, const std::vector<T>& src,
           std::vector<T>& dst, std::vector<Row>& rows, bool& mismatch);

template <class T>
void run_type(const Args& args, fm::PixelType type, std::vector<Row>& rows, bool& mismatch,
              bool& failure) {
    const std::int64_t S = args.size, T_ = args.frames;
    const std::string tn = fm::pixel_type_name(type);
    std::string source;
    const bench::HostImage base = bench::temporal_base(args.images, type, S, source);
    const std::size_t count = static_cast<std::size_t>(S * S * T_);
    std::vector<T> src(count), dst(count);
    auto start = std::chrono::steady_clock::now();
    fill_stack(base, S, T_, src.data(), args.threads);
    std::printf("%s: %ld frames of %ldx%ld (%.2f GiB) from %s, made in %.1f s\n", tn.c_str(), T_,
                S, S, static_cast<double>(count * sizeof(T)) / (1 << 30), source.c_str(),
                seconds_since(start));
    std::fflush(stdout);
    for (int n : args.ns) {
        try {
            run_n(args, type, n, src, dst, rows, mismatch);
        } catch (const std::exception& e) {
            std::printf("!!! FAILED: %s N=%d: %s\n", tn.c_str(), n, e.what());
            std::fflush(stdout);
            failure = true;
        }
    }
}

// Ours and the two baselines for one N.
template <class T>
void run_n(const Args& args, fm::PixelType type, int n, const std::vector<T>& src,
           std::vector<T>& dst, std::vector<Row>& rows, bool& mismatch) {
    const std::int64_t S = args.size, T_ = args.frames;
    const std::string tn = fm::pixel_type_name(type);
    auto start = std::chrono::steady_clock::now();
    const fm::ConstImageView in = fm::view(static_cast<const T*>(src.data()), S, S, T_);
    const fm::ImageView out = fm::view(dst.data(), S, S, T_);
    const double outputs = static_cast<double>(S) * S * T_;
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    auto add = [&](Row r) {
        std::printf("  %-4s %-16s N=%-4d %9.4g Gpix/s  exact %-3s (%d threads) %s\n",
                    r.type.c_str(), r.method.c_str(), r.n, r.gpix,
                    r.exact < 0 ? "-" : (r.exact ? "yes" : "NO"), r.threads, r.note.c_str());
        std::fflush(stdout);
        rows.push_back(std::move(r));
    };

    if (n > T_) {
        std::printf("  N=%d > %ld frames: skipped\n", n, T_);
        return;
    }
    for (std::int64_t t = 0; t < T_; ++t)
        if (bench::window_start(t, T_, n) != fm::temporal_window_start(t, T_, n)) {
            std::printf("!!! MISMATCH: the benchmark's window rule differs from "
                        "temporal_window_start at t=%ld N=%d\n", t, n);
            mismatch = true;
            break;
        }
    // Ours.
    fm::TemporalOptions o;
    o.window = n;
    o.backend = fm::Backend::cpu;
    start = std::chrono::steady_clock::now();
    fm::temporal_median(in, out, o);  // warm-up, and the output the baselines are checked with
    const double warm = seconds_since(start);
    // Slow configurations: the first call is the measurement (its output pages are already
    // touched, so it is not a cold call).
    const int runs = warm > 4.0 ? 0 : args.runs;
    std::vector<double> times;
    if (runs == 0) times.push_back(warm);
    for (int r = 0; r < runs; ++r) {
        start = std::chrono::steady_clock::now();
        fm::temporal_median(in, out, o);
        times.push_back(seconds_since(start));
    }
    const std::size_t mid = times.size() / 2;
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(mid), times.end());
    const double ours = outputs / times[mid] / 1e9;
    add({tn, "fastmedian-cpu", n, ours, -1, hw,
         runs ? "whole movie, median of " + std::to_string(runs) + " runs after a warm-up"
              : std::string("whole movie, 1 call (over 4 s)")});

    // The baselines, on samples.
    for (const bool use_sort : {true, false}) {
        const char* name = use_sort ? "sort-cpu" : "nth_element-cpu";
        const int th = args.threads;
        // Calibrate on one row per thread, doubling the frames until it takes 50 ms.
        double rate = 0;  // outputs per second
        for (std::int64_t f = 1;; f *= 2) {
            const Sample cal = make_sample(S, T_, th, f);
            std::vector<T> tmp(static_cast<std::size_t>(cal.outputs(S)));
            start = std::chrono::steady_clock::now();
            per_pixel_sort(src.data(), S, S, T_, n, cal, use_sort, tmp.data(), th);
            const double s = seconds_since(start);
            rate = static_cast<double>(cal.outputs(S)) / std::max(s, 1e-9);
            if (s >= 0.05 || cal.t1 - cal.t0 >= T_) break;
        }
        const double want = rate * args.sort_budget_s;  // outputs that fit in the budget
        std::int64_t nframes = static_cast<std::int64_t>(want / (static_cast<double>(th) * S));
        std::int64_t nrows = th;
        if (nframes >= T_) {
            nframes = T_;
            nrows = std::max<std::int64_t>(
                th, static_cast<std::int64_t>(want / (static_cast<double>(S) * T_)) / th * th);
        }
        const Sample sample = make_sample(S, T_, nrows, nframes);
        std::vector<T> got(static_cast<std::size_t>(sample.outputs(S)));
        const double estimate = static_cast<double>(sample.outputs(S)) / rate;
        const int bruns = estimate < 0.3 ? args.runs : 1;
        std::vector<double> bt;
        for (int r = 0; r < bruns; ++r) {
            start = std::chrono::steady_clock::now();
            per_pixel_sort(src.data(), S, S, T_, n, sample, use_sort, got.data(), th);
            bt.push_back(seconds_since(start));
        }
        std::nth_element(bt.begin(), bt.begin() + bruns / 2, bt.end());
        const double gpix =
            static_cast<double>(sample.outputs(S)) / bt[static_cast<std::size_t>(bruns / 2)] / 1e9;
        // Compare with ours on the sample.
        const std::int64_t nt = sample.t1 - sample.t0;
        std::int64_t differing = 0;
        std::string first;
        for (std::size_t i = 0; i < sample.rows.size(); ++i)
            for (std::int64_t t = sample.t0; t < sample.t1; ++t) {
                const T* ours_row = dst.data() + (t * S + sample.rows[i]) * S;
                const T* base_row =
                    got.data() + (static_cast<std::int64_t>(i) * nt + (t - sample.t0)) * S;
                if (std::memcmp(ours_row, base_row, static_cast<std::size_t>(S) * sizeof(T)) == 0)
                    continue;
                for (std::int64_t x = 0; x < S; ++x)
                    if (std::memcmp(&ours_row[x], &base_row[x], sizeof(T)) != 0) {
                        if (differing++ == 0)
                            first = "x=" + std::to_string(x) +
                                    " y=" + std::to_string(sample.rows[i]) +
                                    " t=" + std::to_string(t) + ": ours " +
                                    std::to_string(static_cast<double>(ours_row[x])) + ", " + name +
                                    " " + std::to_string(static_cast<double>(base_row[x]));
                    }
            }
        if (differing)
            std::printf("!!! MISMATCH: %s N=%d: %ld of %ld sampled pixels differ between ours "
                        "and %s; first at %s\n", tn.c_str(), n, differing, sample.outputs(S),
                        name, first.c_str());
        mismatch = mismatch || differing != 0;
        char note[200];
        std::snprintf(note, sizeof note,
                      "timed on %zu of %ld rows x %ld of %ld output frames (%.1f%% of the "
                      "outputs), %d run%s, scaled per output pixel",
                      sample.rows.size(), S, nt, T_,
                      100.0 * static_cast<double>(sample.outputs(S)) / outputs, bruns,
                      bruns > 1 ? "s (median)" : "");
        add({tn, name, n, gpix, differing ? 0 : 1, th, note,
             static_cast<double>(sample.outputs(S)) / outputs});
    }
    const auto find = [&](const char* m) {
        for (const Row& r : rows)
            if (r.type == tn && r.n == n && r.method == m) return r.gpix;
        return 0.0;
    };
    std::printf("  => %s N=%d: ours / sort = %.1fx, ours / nth_element = %.1fx\n", tn.c_str(), n,
                ours / find("sort-cpu"), ours / find("nth_element-cpu"));
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<Row> rows;
    bool mismatch = false, failure = false;
    Args args;
    try {
        args = parse(argc, argv);
        std::printf("CPU temporal median: %ld frames of %ldx%ld; %u hardware threads (ours uses "
                    "the library's threads), per-pixel baselines on %d threads\n",
                    args.frames, args.size, args.size, std::thread::hardware_concurrency(),
                    args.threads);
        if (args.threads != static_cast<int>(std::thread::hardware_concurrency()))
            std::printf("note: the baselines run on %d threads, ours on the library's %u\n",
                        args.threads, std::thread::hardware_concurrency());
        for (fm::PixelType type : args.types) {
            switch (type) {
                case fm::PixelType::u8:
                    run_type<std::uint8_t>(args, type, rows, mismatch, failure);
                    break;
                case fm::PixelType::u16:
                    run_type<std::uint16_t>(args, type, rows, mismatch, failure);
                    break;
                case fm::PixelType::f32:
                    run_type<float>(args, type, rows, mismatch, failure);
                    break;
            }
        }
    } catch (const std::exception& e) {
        std::printf("!!! FAILED: %s\n", e.what());
        std::fprintf(stderr, "fastmedian_bench_temporal_cpu: %s\n", e.what());
        failure = true;
    }
    std::printf("\n%-4s %-16s %5s %10s %6s %8s  %s\n", "type", "method", "N", "Gpix/s", "exact",
                "threads", "note");
    for (const Row& r : rows)
        std::printf("%-4s %-16s %5d %10.4g %6s %8d  %s\n", r.type.c_str(), r.method.c_str(), r.n,
                    r.gpix, r.exact < 0 ? "-" : (r.exact ? "yes" : "NO"), r.threads,
                    r.note.c_str());
    if (mismatch) std::printf("\n!!! SOME RESULTS DIFFER (see MISMATCH above)\n");
    if (failure) std::printf("\n!!! SOME CONFIGURATIONS FAILED (see FAILED above)\n");
    if (!args.json.empty()) {
        std::ofstream f(args.json);
        f << "[\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            f << "  {\"type\": \"" << r.type << "\", \"method\": \"" << r.method
              << "\", \"n\": " << r.n << ", \"frames\": " << args.frames << ", \"size\": "
              << args.size << ", \"gpix_per_s\": " << r.gpix << ", \"exact\": "
              << (r.exact < 0 ? "null" : (r.exact ? "true" : "false"))
              << ", \"threads\": " << r.threads << ", \"sample\": " << r.sample
              << ", \"note\": \"" << r.note << "\"}" << (i + 1 < rows.size() ? ",\n" : "\n");
        }
        f << "]\n";
    }
    return mismatch || failure ? 1 : 0;
}
