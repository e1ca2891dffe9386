#include "filter_file.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iterator>
#include <utility>
#include <system_error>

#include "args.hpp"
#include "filter_args.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "tiff_io.hpp"

namespace fastmedian::cli {

std::string format_number(const char* format, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

std::string format_bytes(double bytes) {
    if (bytes < 1024) return format_number("%.0f", bytes) + " bytes";
    const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t unit = 0;
    for (bytes /= 1024; bytes >= 1024 && unit + 1 < std::size(units); bytes /= 1024) ++unit;
    return format_number("%.1f", bytes) + " " + units[unit];
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Refuses when `h`'s planes and `out_planes` planes of output, held at once, are over the
// ceiling, adding `why` to the message where given. In double: a header may claim more bytes
// than 64 bits hold.
void check_memory(const std::string& in, const tiff::StackHeader& h, PixelType out_type,
                  std::int64_t out_planes, std::uint64_t ceiling, const std::string& why = "") {
    const double plane = static_cast<double>(h.width) * h.height;
    const double input = plane * h.planes * pixel_size(h.type);
    const double need = input + plane * out_planes * pixel_size(out_type);
    if (need > static_cast<double>(ceiling))
        throw Error(ErrorCode::io_error,
                    in + ": " + std::to_string(h.planes) + (h.planes == 1 ? " page" : " pages") +
                        " of " + std::to_string(h.width) + "x" + std::to_string(h.height) + " " +
                        pixel_type_name(h.type) + " (" + format_bytes(input) +
                        ") and the output need " + format_bytes(need) +
                        ", more than the memory ceiling of " +
                        format_bytes(static_cast<double>(ceiling)) +
                        " (--max-memory; default: this machine's physical memory)" +
                        (why.empty() ? "" : "; " + why));
}

}  // namespace

PlaneSeries plane_series(const tiff::StackHeader& input, StackAxis axis) {
    const tiff::ImageJAxes& a = input.axes;
    const bool hyperstack = a.channels * a.slices * a.frames > 1;
    if (axis == StackAxis::planes || !hyperstack) return {{0}, 1, input.planes, ""};
    const bool along_frames =
        axis == StackAxis::frames ? a.frames > 1 || a.slices == 1 : a.slices == 1 && a.frames > 1;
    PlaneSeries s;
    s.axis = along_frames ? "frames" : "slices";
    if (along_frames) {
        s.stride = a.channels * a.slices;
        s.length = a.frames;
        for (std::int64_t i = 0; i < a.channels * a.slices; ++i) s.first.push_back(i);
    } else {
        s.stride = a.channels;
        s.length = a.slices;
        for (std::int64_t t = 0; t < a.frames; ++t)
            for (std::int64_t c = 0; c < a.channels; ++c)
                s.first.push_back(c + a.channels * a.slices * t);
    }
    return s;
}

namespace {

// The planes first, first + stride, ... (length of them) of `v`.
template <class View>
View series_view(View v, std::int64_t first, const PlaneSeries& s) {
    v.data += first * v.plane_stride;
    v.plane_stride *= s.stride;
    v.planes = s.length;
    return v;
}

// How filter_file goes through a stack: in blocks of steps, a step being the planes of one
// position along the filter's axis (a page of a 2D filter; a frame of a temporal median, every
// channel and slice of it; a slice of a 3D median's volume, every channel of it). Output steps
// [o0, o1) need input steps input(o0, o1). One step of the whole stack is the stack taken whole.
struct Plan {
    std::int64_t step = 1;    // planes a step
    std::int64_t steps = 1;   // steps in the stack
    std::int64_t volume = 1;  // steps a volume, whose end no block or halo crosses
    std::int64_t block = 1;   // output steps a block, at most
    int window = 0;           // the temporal window N, whose frames a block reads with it
    std::int64_t radius = 0;  // the 3D median's z radius: steps a block reads on either side
    // Two blocks in flight: the next read and the last written while one is filtered.
    bool overlap = false;

    // Input steps a block reads besides its own: a temporal window's N - 1 frames, or the 3D
    // median's slices on either side within the volume.
    std::int64_t halo() const {
        return window > 0 ? window - 1 : std::min(2 * radius, volume - 1);
    }
    // Output steps a block writes besides its own: the temporal median writes the output of
    // its halo too (its API takes no output box); median3d only the block's.
    std::int64_t out_halo() const { return window > 0 ? halo() : 0; }
    // The most input steps a block reads.
    std::int64_t most_input() const { return std::min(block + halo(), volume); }
    // The most output steps a block writes.
    std::int64_t most_output() const { return window > 0 ? most_input() : block; }
    // The end of the block of output steps from o0.
    std::int64_t block_end(std::int64_t o0) const {
        return std::min(o0 + block, o0 - o0 % volume + volume);
    }
    // The input steps [first, end) that output steps [o0, o1) read. A 3D median's halo stops
    // at its volume's ends, where median3d applies the border mode as in the whole volume.
    std::pair<std::int64_t, std::int64_t> input(std::int64_t o0, std::int64_t o1) const {
        if (window > 0)
            return {temporal_window_start(o0, steps, window),
                    temporal_window_start(o1 - 1, steps, window) + window};
        const std::int64_t v0 = o0 - o0 % volume;
        return {std::max(o0 - radius, v0), std::min(o1 + radius, v0 + volume)};
    }
};

// The input and output planes the blocks in flight hold together at most by default, under
// the memory ceiling. While one block is filtered the system writes the last one's output back
// to the disk, where a whole stack's output all waits for the final fsync: blocks finish sooner
// than the whole stack at once (docs/cli.md, Memory).
constexpr double kBlockBytes = 256.0 * (1 << 20);

// Output steps a block holds with its input's halo when `in_flight` blocks are held at once:
// as many as their share of kBlockBytes (or of 8 halos, so that filtering each block's halo
// again costs little) hold, within their share of the memory ceiling; while the progress line
// is shown about a fiftieth of the stack, so it moves (but at least 4 halos). 0 where not one
// step fits. Blocks in flight share what one block would hold: fresh memory costs about as
// much as reading it (on the 2-core build machine, 0.2 s for 64 MiB when another thread takes
// some too), and twice as much of it in flight took longer than the overlap saved.
std::int64_t block_steps(const tiff::StackHeader& h, const Plan& p, PixelType out_type,
                         std::uint64_t ceiling, int in_flight, bool progress_shown) {
    const std::int64_t halo = p.halo();
    const std::int64_t out_halo = p.out_halo();
    const double plane = static_cast<double>(h.width) * h.height * static_cast<double>(p.step);
    const double in_step = plane * pixel_size(h.type), out_step = plane * pixel_size(out_type);
    const double pair = in_step + out_step;
    const double budget =
        std::min(static_cast<double>(ceiling),
                 std::max(kBlockBytes, 8.0 * static_cast<double>(1 + halo) * pair)) /
        in_flight;
    std::int64_t block = static_cast<std::int64_t>(
        std::min(static_cast<double>(p.steps),
                 std::floor((budget - halo * in_step - out_halo * out_step) / pair)));
    if (progress_shown) block = std::min(block, std::max((p.steps + 49) / 50, 4 * halo));
    return std::max(block, std::int64_t{0});
}

// A filter that takes each plane on its own (the 2D filters).
bool planewise(const StackFilter& f) { return f.axis == StackAxis::planes && !f.project; }

// The plan of `f` over the stack `h`. 2D filters go page by page. A temporal median along
// frames goes frame by frame, keeping the frames its windows share, where a frame's planes lie
// together in the file (along frames; along slices of a stack without frames). A 3D median
// goes volume by volume (a frame's slices, every channel of them, lie together), in slabs of
// slices read with the f.radius slices on either side, but takes each volume whole where its
// window wraps around it. The others take the stack whole, refused over the ceiling.
Plan plan_for(const std::string& in, const tiff::StackHeader& h, const PlaneSeries& series,
              const StackFilter& f, std::int64_t samples, PixelType out_type, bool progress_shown) {
    Plan p;
    const bool together = series.axis == "frames" || h.axes.frames == 1;
    if (planewise(f)) {
        p.step = samples;
    } else if (f.radius >= 0) {
        p.step = series.stride;
        p.radius = f.radius;
    } else if (f.window > 0 && !f.project && series.length > 1 && together) {
        p.step = h.planes / series.length;
        p.window = f.window;
    } else {
        p.step = h.planes;
        check_memory(in, h, out_type,
                     f.project ? static_cast<std::int64_t>(series.first.size()) : h.planes,
                     f.max_memory);
        return p;
    }
    p.steps = h.planes / p.step;
    p.volume = f.radius >= 0 ? series.length : p.steps;
    if (f.wraps && p.radius > 0) {
        tiff::StackHeader volume = h;
        volume.planes = p.volume * p.step;
        check_memory(in, volume, out_type, volume.planes, f.max_memory,
                     "--border wrap needs the whole volume");
        p.block = p.volume;
        return p;
    }
    // Refused where even a block of one step is over the ceiling.
    tiff::StackHeader least = h;
    least.planes = (1 + p.halo()) * p.step;
    check_memory(in, least, out_type, (1 + p.out_halo()) * p.step, f.max_memory);
    p.block = std::max(block_steps(h, p, out_type, f.max_memory, 1, progress_shown),
                       std::int64_t{1});
    // A stack of more than one block goes two blocks at a time in that memory where each still
    // holds at least its halo (a temporal block filters its halo again: at most twice the
    // work): the next one is read and the last one written while one is filtered.
    const std::int64_t shared = block_steps(h, p, out_type, f.max_memory, 2, progress_shown);
    p.overlap = p.block_end(0) < p.steps && shared >= std::max(p.halo(), std::int64_t{1});
    if (p.overlap) p.block = shared;
    return p;
}

// The input steps [first, end) of each block in turn, read from `reader` into one buffer, or
// into two by turns (the one the filter reads stays as it is while the next block is read).
// The steps a block shares with the last (its halo) are taken from the last, not read again.
class InputBlocks {
public:
    // `most`: the most steps a block holds.
    InputBlocks(tiff::StackReader& reader, const tiff::StackHeader& h, std::int64_t step,
                std::int64_t most, std::size_t buffers)
        : reader_(reader), buffers_(buffers, tiff::Stack(h.type, h.width, h.height, 0)),
          step_(step),
          step_bytes_(static_cast<std::size_t>(h.width * h.height * step) * pixel_size(h.type)),
          most_bytes_(static_cast<std::size_t>(most) * step_bytes_) {}

    // The next block, steps [first, end). Blocks move forward: first does not pass the last
    // block's end (the reader goes on from there), and neither bound goes back.
    const tiff::Stack& read(std::int64_t first, std::int64_t end,
                            const tiff::PlaneProgress& progress) {
        const tiff::Stack& last = buffers_[last_];
        last_ = (last_ + 1) % buffers_.size();
        tiff::Stack& next = buffers_[last_];
        const auto dropped = static_cast<std::ptrdiff_t>((first - first_) * step_bytes_);
        // Room for the most steps at once, once a step's pixels prove the pages' size (a
        // header alone may claim any): a buffer that grew with the blocks would be held
        // twice, old and new, each time it moved, over the ceiling.
        const bool proven = end_ > 0;
        if (&next == &last) {
            next.bytes.erase(next.bytes.begin(), next.bytes.begin() + dropped);
        } else {
            if (proven) next.bytes.reserve(most_bytes_);
            next.bytes.assign(last.bytes.begin() + dropped, last.bytes.end());
        }
        std::int64_t read = 0;  // steps of this call read
        if (next.bytes.capacity() < most_bytes_ && end > end_) {
            if (!proven) {
                reader_.read(step_, next.bytes, progress);
                read = 1;
            }
            next.bytes.reserve(most_bytes_);
        }
        reader_.read((end - end_ - read) * step_, next.bytes,
                     progress ? [&](std::int64_t done) { progress(read * step_ + done); }
                              : tiff::PlaneProgress());
        first_ = first;
        end_ = end;
        next.planes = (end_ - first_) * step_;
        return next;
    }

private:
    tiff::StackReader& reader_;
    std::vector<tiff::Stack> buffers_;
    std::size_t last_ = 0;  // the buffer of the last block
    std::int64_t step_;
    std::size_t step_bytes_, most_bytes_;
    std::int64_t first_ = 0, end_ = 0;  // the last block's steps
};

}  // namespace

FilterResult filter_file(const std::string& in, const std::string& out, const StackFilter& f) {
    const auto began = Clock::now();
    // By identity, not by name: "./a.tif", a hard link or a symlink to the input all count.
    std::error_code ec;
    if (std::filesystem::equivalent(in, out, ec))
        throw UsageError("output " + out + " is the same file as input " + in +
                         "; refusing to overwrite the input");
    // Before the input is read and filtered: a bad output path is found at once, not after a
    // long run.
    tiff::check_output(out);
    ProgressLine line(f.progress, std::filesystem::path(in).filename().string());
    const auto update = [&line](std::int64_t done) { line.update(done); };
    tiff::StackReader reader(in);
    const tiff::StackHeader& h = reader.header();
    const PlaneSeries series = plane_series(h, f.axis);
    if (f.check) f.check(in, h, series.length);
    const PixelType out_type = f.float_output ? PixelType::f32 : h.type;
    const auto projections = static_cast<std::int64_t>(series.first.size());
    const std::int64_t out_planes = f.project ? projections : h.planes;
    const Plan plan = plan_for(in, h, series, f, reader.metadata().rgb ? 3 : 1, out_type,
                               line.shown());
    tiff::StackWriter writer(out, {out_type, h.width, h.height, out_planes, {}},
                             f.project ? tiff::projected_metadata(reader.metadata(), series.axis,
                                                                  projections)
                                       : reader.metadata());
    FilterResult r;
    r.type = h.type;
    r.width = h.width;
    r.height = h.height;
    r.planes = h.planes;
    if (f.backend != Backend::cpu) {
        // A process's first CUDA call creates the context (about 0.2 s); a one-pixel run of
        // the same filter pays for it, so filter_ms is the filter's own time.
        tiff::Stack one(h.type, 1, 1, f.warmup_planes);
        tiff::Stack one_out(out_type, 1, 1, f.project ? 1 : f.warmup_planes);
        const auto start = Clock::now();
        if (f.run(one.view(), one_out.mutable_view(), 0).backend == Backend::cuda)
            r.startup_ms = ms_since(start);
    }
    const std::size_t buffers = plan.overlap ? 2 : 1;
    // With two buffers of each, blocks are read and written beside the filter; with one, each
    // read or write runs when it is waited for.
    const std::launch launch = plan.overlap ? std::launch::async : std::launch::deferred;
    // One block shows its reading, filtering and writing; several show the planes done.
    const bool stages = plan.block_end(0) >= plan.steps;
    const tiff::PlaneProgress progress =
        stages ? tiff::PlaneProgress(update) : tiff::PlaneProgress();
    InputBlocks input(reader, h, plan.step, plan.most_input(), buffers);
    // Taken once the first block's pixels have proved to be in the file.
    std::vector<tiff::Stack> outputs(buffers);
    const std::int64_t most_output = f.project ? projections : plan.most_output() * plan.step;
    const auto read_block = [&](std::int64_t o0) {
        const std::pair<std::int64_t, std::int64_t> steps = plan.input(o0, plan.block_end(o0));
        if (stages) line.stage("reading", (steps.second - steps.first) * plan.step);
        return std::async(launch, [&input, &progress, steps] {
            return &input.read(steps.first, steps.second, progress);
        });
    };
    // Declared after what the reads and writes use, so destroyed first: on an error, a block
    // still being read or written is finished before its buffers and files go.
    std::future<void> writing;
    std::future<const tiff::Stack*> reading = read_block(0);
    const auto wait_for_writing = [&] {
        if (!writing.valid()) return;
        const auto start = Clock::now();
        writing.get();
        r.write_ms += ms_since(start);
    };
    if (!stages) line.stage("filtering", h.planes);
    for (std::int64_t o0 = 0, o1, b = 0; o0 < plan.steps; o0 = o1, ++b) {
        o1 = plan.block_end(o0);
        const auto [first, end] = plan.input(o0, o1);
        // The output steps [from, to) the run writes: the temporal median's API takes no output
        // box, so it writes those of every input step; median3d only the block's.
        const std::int64_t from = plan.window > 0 ? first : o0, to = plan.window > 0 ? end : o1;
        auto start = Clock::now();
        const tiff::Stack& src = *reading.get();
        r.read_ms += ms_since(start);
        if (o1 < plan.steps) reading = read_block(o1);
        tiff::Stack& dst = outputs[b % buffers];
        if (dst.bytes.empty()) dst = tiff::Stack(out_type, h.width, h.height, most_output);
        ImageView into = dst.mutable_view();
        into.planes = f.project ? projections : (to - from) * plan.step;
        // One output buffer: the last block's output leaves it before this one's comes.
        if (!plan.overlap) wait_for_writing();
        if (stages) line.stage("filtering", src.planes);
        start = Clock::now();
        if (planewise(f)) {
            r.run = f.run(src.view(), into, 0);
        } else {
            // A block's series run along its steps, from their plane within a step.
            PlaneSeries reads = series, writes = series;
            if (plan.steps > 1) reads.length = end - first, writes.length = to - from;
            for (std::int64_t g = 0; g < projections; ++g) {
                // Only the series of the block's volume (a 3D median's channels of one frame).
                if (series.first[g] / plan.step / plan.volume != o0 / plan.volume) continue;
                const std::int64_t at = series.first[g] % plan.step;
                ImageView one = into;
                if (f.project) one.data += g * one.plane_stride, one.planes = 1;
                else one = series_view(one, at, writes);
                r.run = f.run(series_view(src.view(), at, reads), one, from - first);
                if (stages) line.update((g + 1) * reads.length);
            }
        }
        r.filter_ms += ms_since(start);
        // Output steps [o0, o1) of the block's [from, to).
        ImageView done = into;
        if (!f.project) {
            done.data += (o0 - from) * plan.step * done.plane_stride;
            done.planes = (o1 - o0) * plan.step;
        }
        wait_for_writing();
        if (stages) line.stage("writing", done.planes);
        writing = std::async(launch, [&writer, &progress, done] { writer.write(done, progress); });
        if (!stages) line.update(o1 * plan.step);
    }
    wait_for_writing();
    const auto start = Clock::now();
    writer.commit();
    r.sync_ms = ms_since(start);
    line.erase();
    r.wall_ms = ms_since(began);
    return r;
}

FilterResult filter_file(const std::string& in, const std::string& out, const MedianOptions& o,
                         std::uint64_t max_memory, bool progress) {
    StackFilter f;
    f.backend = o.backend;
    f.max_memory = max_memory;
    f.progress = progress;
    f.check = [&o](const std::string&, const tiff::StackHeader& h, std::int64_t) {
        check_cval(o.border, o.cval, h.type);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t) {
        return median2d(src, dst, o);
    };
    return filter_file(in, out, f);
}

FilterResult filter_file(const std::string& in, const std::string& out, const Median3DOptions& o,
                         std::uint64_t max_memory, bool progress) {
    StackFilter f;
    f.backend = o.backend;
    f.max_memory = max_memory;
    f.progress = progress;
    f.axis = StackAxis::slices;
    f.check = [&o](const std::string&, const tiff::StackHeader& h, std::int64_t) {
        check_cval(o.border, o.cval, h.type);
    };
    f.radius = window3d_runs(o.window).radius_z;
    f.wraps = o.border == Border::wrap;
    f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t origin) {
        Median3DOptions slab = o;
        slab.origin = Origin{0, 0, origin};
        return median3d(src, dst, slab);
    };
    return filter_file(in, out, f);
}

std::string summary(const Median3DOptions& o, const FilterResult& r, const std::string& out) {
    const Window3D& w = o.window;
    std::string what = w.shape == Window3D::Shape::box
                           ? std::to_string(w.size_x) + "x" + std::to_string(w.size_y) + "x" +
                                 std::to_string(w.size_z)
                           : "ellipsoid " + format_number("%g", w.radius_x) + "," +
                                 format_number("%g", w.radius_y) + "," + format_number("%g", w.radius_z);
    what += std::string(" ") + border_name(o.border);
    if (o.border == Border::constant) what += " " + format_number("%g", o.cval);
    return summary("median " + what, r, out);
}

std::string summary(const MedianOptions& o, const FilterResult& r, const std::string& out) {
    return summary("median " + describe(o.window, o.border, o.cval), r, out);
}

std::string summary(const std::string& what, const FilterResult& r, const std::string& out) {
    std::string s = what;
    s += std::string(" on ") + backend_name(r.run.backend);
    if (r.run.backend == Backend::cuda)
        for (std::size_t i = 0; i < r.run.devices.size(); ++i)
            s += (i == 0 ? ":" : ",") + std::to_string(r.run.devices[i]);
    s += " (" + r.run.device_name + "): " + std::to_string(r.width) + "x" +
         std::to_string(r.height) + "x" + std::to_string(r.planes) + " " +
         pixel_type_name(r.type) + " in " + format_number("%.1f", r.wall_ms) + " ms: ";
    if (r.startup_ms > 0.0) s += "CUDA start-up " + format_number("%.1f", r.startup_ms) + ", ";
    s += "read " + format_number("%.1f", r.read_ms) + ", filter " +
         format_number("%.1f", r.filter_ms) + ", write " + format_number("%.1f", r.write_ms) +
         ", fsync+rename " + format_number("%.1f", r.sync_ms) + " ms -> " + out;
    return s;
}

}  // namespace fastmedian::cli
