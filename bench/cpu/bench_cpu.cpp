// CPU median throughput: our CPU backend beside OpenCV's cv::medianBlur (when built with it) in
// one run, on every kind of data (data_kinds.hpp: the shared real images tiled to size x size
// from bench/gpu/images, made by bench/gpu/prepare_images.py; f32 with fractions; full-range
// noise; f32 with every value distinct).
//
//   fastmedian_bench_cpu --images bench/gpu/images [--size 2048] [--runs 7]
//                        [--k 3,5,7,11,13,21,31,65] [--data all|images,flat,noise]
//                        [--out FILE] [--dump DIR]
//
// Each figure is the median of `runs` timed calls after one warm-up call; Mpix/s counts output
// pixels. Ours runs square k (replicate border, as medianBlur) and ImageJ's circle of radius
// (k-1)/2 (the window RankFilters uses for that radius). Before timing, OpenCV's output is
// compared with ours; the two are then timed in turns, call by call. Results go to stdout and, as
// tab-separated lines "impl type data window mpix threads", to --out for report.py. --dump writes
// each input to DIR for the peers outside this program (ImageJMedianBench, opencv_peer.py).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "median_seconds.hpp"
#include "data_kinds.hpp"
#ifdef FASTMEDIAN_BENCH_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

namespace fm = fastmedian;

namespace {

struct Args {
    std::string images = "bench/gpu/images";
    std::int64_t size = 2048;
    int runs = 7;
    std::vector<int> sizes = {3, 5, 7, 11, 13, 21, 31, 65};  // square k (and circles of radius (k-1)/2)
    std::string data = "all", out, dump;
};

Args parse(int argc, char** argv) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        if (key == "--images") a.images = argv[i + 1];
        else if (key == "--size") a.size = std::stoll(argv[i + 1]);
        else if (key == "--runs") a.runs = std::stoi(argv[i + 1]);
        else if (key == "--out") a.out = argv[i + 1];
        else if (key == "--data") a.data = argv[i + 1];
        else if (key == "--dump") a.dump = argv[i + 1];
        else if (key == "--k") {
            a.sizes.clear();
            std::stringstream list(argv[i + 1]);
            for (std::string k; std::getline(list, k, ',');) a.sizes.push_back(std::stoi(k));
        } else throw std::runtime_error("unknown option " + key);
    }
    return a;
}

#ifdef FASTMEDIAN_BENCH_OPENCV
bool opencv_supports(fm::PixelType type, int k) { return type == fm::PixelType::u8 || k <= 5; }

int opencv_type(fm::PixelType type) {
    switch (type) {
        case fm::PixelType::u8: return CV_8UC1;
        case fm::PixelType::u16: return CV_16UC1;
        default: return CV_32FC1;
    }
}
#endif


// Times every window of `args` on `image`: ours on square k beside OpenCV (where it takes the
// type and k) and on ImageJ's circle of radius (k-1)/2; `record` takes each figure.
template <class Record>
void run_kind(const bench::HostImage& image, const std::string& kind, const Args& args,
              const Record& record) {
    const int threads = static_cast<int>(std::thread::hardware_concurrency());
    const fm::PixelType type = image.type;
    const double mpix = static_cast<double>(image.pixels()) / 1e6;
    std::vector<std::uint8_t> dst(image.bytes.size());
    const fm::ConstImageView in = image.view();
    fm::ImageView o;
    std::memcpy(static_cast<void*>(&o), &in, sizeof o);
    o.data = dst.data();
    for (int k : args.sizes) {
        fm::MedianOptions options;
        options.backend = fm::Backend::cpu;
        options.window = fm::Window::square(k);
        const auto ours = [&] { fm::median2d(in, o, options); };
        const std::string square = "square" + std::to_string(k);
#ifdef FASTMEDIAN_BENCH_OPENCV
        if (opencv_supports(type, k)) {
            const cv::Mat src(static_cast<int>(image.height), static_cast<int>(image.width),
                              opencv_type(type), const_cast<std::uint8_t*>(image.bytes.data()));
            cv::Mat cv_out;
            ours();
            cv::medianBlur(src, cv_out, k);
            if (std::memcmp(cv_out.data, dst.data(), dst.size()) != 0)
                std::printf("  note: OpenCV's output differs from ours\n");
            const auto [ours_s, opencv_s] = median_seconds_in_turns(
                args.runs, ours, [&] { cv::medianBlur(src, cv_out, k); });
            record("ours", type, kind, square, mpix / ours_s, threads);
            record("opencv", type, kind, square, mpix / opencv_s, cv::getNumThreads());
        } else
#endif
            record("ours", type, kind, square, mpix / median_seconds(args.runs, ours), threads);
        options.window = fm::Window::circle((k - 1) / 2);
        record("ours", type, kind, "circle" + std::to_string((k - 1) / 2),
               mpix / median_seconds(args.runs, [&] { fm::median2d(in, o, options); }), threads);
    }
}

}  // namespace

int main(int argc, char** argv) try {
    const Args args = parse(argc, argv);
    const int threads = static_cast<int>(std::thread::hardware_concurrency());
    std::ofstream out;
    if (!args.out.empty()) out.open(args.out);
    auto record = [&](const char* impl, fm::PixelType type, const std::string& kind,
                      const std::string& window, double mpix, int used_threads) {
        std::printf("%-8s %-4s %-7s %-10s %10.1f Mpix/s  (%d threads)\n", impl,
                    fm::pixel_type_name(type), kind.c_str(), window.c_str(), mpix, used_threads);
        std::fflush(stdout);
        if (out) out << impl << '\t' << fm::pixel_type_name(type) << '\t' << kind << '\t' << window
                     << '\t' << mpix << '\t' << used_threads << '\n';
    };
    std::printf("CPU median, %lldx%lld images, median of %d runs, %d hardware threads\n",
                static_cast<long long>(args.size), static_cast<long long>(args.size), args.runs,
                threads);
#ifdef FASTMEDIAN_BENCH_OPENCV
    std::printf("OpenCV %s, %d threads\n", CV_VERSION, cv::getNumThreads());
#else
    std::printf("OpenCV: not built in\n");
#endif
    for (fm::PixelType type : {fm::PixelType::u8, fm::PixelType::u16, fm::PixelType::f32}) {
        const bench::HostImage shared = bench::tile(bench::read_raw(args.images, type), args.size);
        for (const std::string& kind : bench::data_kinds(args.data, type)) {
            const bench::HostImage image = bench::make_input(kind, shared);
            if (!args.dump.empty()) bench::dump_input(args.dump, kind, image);
            run_kind(image, kind, args, record);
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "fastmedian_bench_cpu: %s\n", e.what());
    return 1;
}
