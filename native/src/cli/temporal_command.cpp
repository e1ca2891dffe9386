// fastmedian temporal IN.tif OUT.tif --window N [--mode median|subtract] [--offset V]
//                     [--backend B] [--max-memory BYTES]
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/temporal.hpp"
#include "filter_args.hpp"
#include "file_pairs.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

namespace {

int parse_window(const Args& a) {
    const std::string* window = a.get("--window");
    if (window == nullptr)
        throw UsageError("temporal needs --window N, the number of frames in each median");
    int n = 0;
    if (!parse_int(*window, n) || n < 1 || n > TemporalOptions::kMaxWindow)
        throw UsageError("--window must be an integer from 1 to " +
                         std::to_string(TemporalOptions::kMaxWindow) + ", got " +
                         shown(*window));
    return n;
}

}  // namespace

int temporal_command(const std::vector<std::string>& args) {
    const Args a(args, {"--window", "--mode", "--offset", "--backend", "--max-memory", "--out-dir"});
    const std::vector<FilePair> files = file_pairs(a, "temporal");
    TemporalOptions o;
    o.window = parse_window(a);
    if (const std::string* m = a.get("--mode")) o.mode = parse_temporal_mode(*m, "--mode");
    if (const std::string* v = a.get("--offset")) {
        if (o.mode != TemporalMode::subtract)
            throw UsageError("--offset applies only to --mode subtract");
        o.offset = parse_offset(*v);
    }
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    std::string what = std::string("temporal ") + temporal_mode_name(o.mode) + " N=" +
                       std::to_string(o.window);
    if (o.mode == TemporalMode::subtract) what += " offset " + format_number("%g", o.offset);

    StackFilter f;
    f.backend = o.backend;
    f.max_memory = parse_max_memory(a);
    f.warmup_planes = o.window;
    f.check = [&o](const std::string& in, const tiff::StackHeader& h) {
        refuse_hyperstack(in, h, "temporal", "frames");
        if (o.window > h.planes)
            throw UsageError("--window " + std::to_string(o.window) + " is more than the " +
                             std::to_string(h.planes) + " frames of " + in);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst) {
        return temporal_median(src, dst, o);
    };
    return run_each(files, [&](const FilePair& p) {
        std::cout << summary(what, filter_file(p.in, p.out, f), p.out) << "\n";
    });
}

}  // namespace fastmedian::cli
