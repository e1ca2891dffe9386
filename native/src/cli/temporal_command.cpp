// fastmedian temporal IN.tif OUT.tif (--window N | --project) [--mode median|subtract]
//                     [--offset V] [--backend B] [--max-memory BYTES]
#include <algorithm>
#include <cstring>
#include <iostream>
#include <set>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/temporal.hpp"
#include "filter_args.hpp"
#include "file_pairs.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

namespace {

const std::set<std::string> kValued = {"--window", "--mode", "--offset", "--backend",
                                       "--max-memory", "--out-dir"};

int parse_window(const Args& a) {
    const std::string* window = a.get("--window");
    if (window == nullptr)
        throw UsageError("temporal needs --window N, the number of frames in each median, or "
                         "--project");
    int n = 0;
    if (!parse_int(*window, n) || n < 1 || n > TemporalOptions::kMaxWindow)
        throw UsageError("--window must be an integer from 1 to " +
                         std::to_string(TemporalOptions::kMaxWindow) + ", got " +
                         shown(*window));
    return n;
}

// Rows of the projection's scratch at a time: its N planes of a band stay near this size.
constexpr std::int64_t kProjectionBandBytes = std::int64_t{64} << 20;

// The median of all of `src`'s frames into the one plane `dst`: the temporal median with a
// window of every frame gives that same median for each frame (no window slides), so the
// first frame of it is kept. Band by band, so the scratch stays small.
RunInfo project_frames(const ConstImageView& src, const ImageView& dst, TemporalOptions o) {
    o.window = static_cast<int>(src.planes);
    const std::int64_t row_bytes = src.width * static_cast<std::int64_t>(pixel_size(src.type));
    const std::int64_t rows = std::clamp<std::int64_t>(
        kProjectionBandBytes / (row_bytes * src.planes), 1, src.height);
    std::vector<std::uint8_t> scratch(static_cast<std::size_t>(rows * row_bytes * src.planes));
    RunInfo info;
    for (std::int64_t y = 0; y < src.height; y += rows) {
        ConstImageView band = src;
        band.data += y * src.row_stride;
        band.height = std::min(rows, src.height - y);
        ImageView all;
        all.data = scratch.data();
        all.type = src.type;
        all.width = src.width;
        all.height = band.height;
        all.planes = src.planes;
        all.row_stride = row_bytes;
        all.plane_stride = row_bytes * band.height;
        info = temporal_median(band, all, o);
        for (std::int64_t r = 0; r < band.height; ++r)
            std::memcpy(dst.row(0, y + r), all.row(0, r), static_cast<std::size_t>(row_bytes));
    }
    return info;
}

}  // namespace

int temporal_command(const std::vector<std::string>& args) {
    bool project = false, quiet = false;
    const Args a(take_flags(args, kValued, {{"--project", &project}, {"--quiet", &quiet}}),
                 kValued);
    const std::vector<FilePair> files = file_pairs(a, "temporal");
    TemporalOptions o;
    if (project && a.get("--window") != nullptr)
        throw UsageError("--project takes every frame; --window does not apply");
    if (!project) o.window = parse_window(a);
    if (const std::string* m = a.get("--mode")) o.mode = parse_temporal_mode(*m, "--mode");
    if (project && o.mode != TemporalMode::median)
        throw UsageError("--project writes the median itself; --mode subtract does not apply");
    if (const std::string* v = a.get("--offset")) {
        if (o.mode != TemporalMode::subtract)
            throw UsageError("--offset applies only to --mode subtract");
        o.offset = parse_offset(*v);
    }
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    std::string what = project ? std::string("temporal projection (median of all frames)")
                               : std::string("temporal ") + temporal_mode_name(o.mode) +
                                     " N=" + std::to_string(o.window);
    if (o.mode == TemporalMode::subtract) what += " offset " + format_number("%g", o.offset);

    StackFilter f;
    f.backend = o.backend;
    f.max_memory = parse_max_memory(a);
    f.warmup_planes = project ? 1 : o.window;
    f.axis = StackAxis::frames;
    f.project = project;
    f.window = project ? 0 : o.window;
    f.progress = !quiet;
    f.check = [&o, project](const std::string& in, const tiff::StackHeader& h,
                            std::int64_t frames) {
        const std::string each = frames < h.planes ? " (in each channel and slice)" : "";
        if (project && frames > TemporalOptions::kMaxWindow)
            throw UsageError("--project takes at most " +
                             std::to_string(TemporalOptions::kMaxWindow) + " frames; " + in +
                             " has " + std::to_string(frames) + each);
        if (!project && o.window > frames)
            throw UsageError("--window " + std::to_string(o.window) + " is more than the " +
                             std::to_string(frames) + " frames of " + in + each);
    };
    if (project)
        f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t) {
            return project_frames(src, dst, o);
        };
    else
        f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t) {
            return temporal_median(src, dst, o);
        };
    return run_each(files, [&](const FilePair& p) {
        const FilterResult r = filter_file(p.in, p.out, f);
        if (!quiet) std::cout << summary(what, r, p.out) << "\n";
    });
}

}  // namespace fastmedian::cli
