// fastmedian temporal IN.tif OUT.tif --window N [--mode median|subtract] [--offset V]
//                     [--backend B] [--max-memory BYTES]
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/temporal.hpp"
#include "filter_args.hpp"
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
    const Args a(args, {"--window", "--mode", "--offset", "--backend", "--max-memory"});
    if (a.positionals().size() != 2)
        throw UsageError("temporal needs IN.tif and OUT.tif, got " +
                         std::to_string(a.positionals().size()) + " paths");
    TemporalOptions o;
    o.window = parse_window(a);
    if (const std::string* m = a.get("--mode")) o.mode = parse_temporal_mode(*m, "--mode");
    if (const std::string* v = a.get("--offset")) {
        if (o.mode != TemporalMode::subtract)
            throw UsageError("--offset applies only to --mode subtract");
        o.offset = parse_offset(*v);
    }
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    const std::string& in = a.positionals()[0];
    const std::string& out = a.positionals()[1];

    StackFilter f;
    f.backend = o.backend;
    f.max_memory = parse_max_memory(a);
    f.warmup_planes = o.window;
    f.check = [&](const tiff::StackHeader& h) {
        refuse_hyperstack(in, h, "temporal", "frames");
        if (o.window > h.planes)
            throw UsageError("--window " + std::to_string(o.window) + " is more than the " +
                             std::to_string(h.planes) + " frames of " + in);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst) {
        return temporal_median(src, dst, o);
    };
    const FilterResult r = filter_file(in, out, f);
    std::string what = std::string("temporal ") + temporal_mode_name(o.mode) + " N=" +
                       std::to_string(o.window);
    if (o.mode == TemporalMode::subtract) what += " offset " + format_number("%g", o.offset);
    std::cout << summary(what, r, out) << "\n";
    return 0;
}

}  // namespace fastmedian::cli
