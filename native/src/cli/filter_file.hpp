// One filter run from file to file, shared by `median`, `temporal` and `demo`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "tiff_io.hpp"

namespace fastmedian::cli {

struct FilterResult {
    PixelType type = PixelType::u8;
    std::int64_t width = 0, height = 0, planes = 0;
    RunInfo run;
    // The run's parts, in milliseconds: the whole (opening the files to the rename) and what
    // it spent reading the input, filtering, writing the output, and on the output's fsync
    // and rename over its path; what is left is reading and writing the files' headers and
    // taking memory. Blocks read or written while another is filtered count only where the
    // filter waited for them, so the parts never add up to more than the whole.
    double wall_ms = 0.0;
    double read_ms = 0.0;
    double filter_ms = 0.0;   // the filter alone, without reading and writing
    double write_ms = 0.0;
    double sync_ms = 0.0;
    double startup_ms = 0.0;  // creating the CUDA context, for runs on a GPU
};

// Which planes a filter takes together as one stack. ImageJ stores a hyperstack's planes
// channels fastest, then slices, then frames; a filter along one axis runs once for each
// position on the other two (channels are never mixed). A file that is no hyperstack, or has
// only one of the two axes (a time series saved as slices, a volume saved as frames), is
// filtered along that one.
enum class StackAxis { planes, frames, slices };

// The planes of each stack a filter along `axis` takes: stack g is planes first[g],
// first[g] + stride, ... (length of them).
struct PlaneSeries {
    std::vector<std::int64_t> first;
    std::int64_t stride = 1;
    std::int64_t length = 0;
    std::string axis;  // the ImageJ axis they run along ("frames", "slices"); "" for all planes
};
PlaneSeries plane_series(const tiff::StackHeader& input, StackAxis axis);

// What filter_file runs over the whole stack, for any filter of the public API.
struct StackFilter {
    // The backend the options ask for: anything but cpu pays a one-pixel warm-up run first.
    Backend backend = Backend::automatic;
    // Planes of that warm-up run's 1 x 1 stack: the fewest the filter accepts.
    std::int64_t warmup_planes = 1;
    // The axis `run` filters along (StackAxis::planes: all planes as one stack).
    StackAxis axis = StackAxis::planes;
    // Called with the input's path and header, and the planes of each stack `run` will get,
    // before its pixels are read; throws UsageError for options that do not fit it. May be
    // empty.
    std::function<void(const std::string& in, const tiff::StackHeader& input,
                       std::int64_t length)> check;
    // Filters `src` into `dst` (the type float_output says) and says what ran. dst is as
    // large as src, but for a 3D median's slab (radius): then it is the box of src's output
    // from src's plane `origin` on, the planes of src around it being its halo.
    std::function<RunInfo(const ConstImageView& src, const ImageView& dst, std::int64_t origin)>
        run;
    // A temporal median's window N: output frame t reads the input frames from
    // temporal_window_start(t, frames, N) on, so a stack larger than memory can go in blocks
    // of frames, keeping the frames their windows share. 0: no such window.
    int window = 0;
    // A 3D median's z radius: output slice z of a volume reads the input slices z - radius ..
    // z + radius, clipped to the volume (where the border mode applies as in the whole one),
    // so a stack larger than memory can go in slabs of slices, each read with that halo.
    // -1: no such radius.
    std::int64_t radius = -1;
    // Whether that window wraps around the volume (Border::wrap), reading its other end: a
    // volume is then taken whole.
    bool wraps = false;
    // A projection: `run` writes one plane for each stack it gets, and the output holds
    // those planes (in the order of PlaneSeries::first) with its metadata made to say so.
    bool project = false;
    // The output's pixel type: f32 here, or the input's own when false.
    bool float_output = false;
    // The ceiling on the input and output planes held at once, in bytes (--max-memory).
    std::uint64_t max_memory = 0;
    // A progress line on a terminal (progress.hpp) while reading, filtering and writing; false
    // with --quiet.
    bool progress = false;
};

// Reads `in`, filters the whole stack and writes `out`, in blocks of planes within
// f.max_memory where the filter allows (filter_file.cpp, Plan), reading the next block and
// writing the last one while one is filtered where the ceiling holds two. Refuses
// (UsageError) when `out` is the same file as `in`, and (Error, io_error) before reading any
// pixel when even the least the filter must hold at once is over f.max_memory; never leaves a
// partial `out`.
FilterResult filter_file(const std::string& in, const std::string& out, const StackFilter& f);
// median2d over every plane; refuses a non-finite --cval for integer images.
FilterResult filter_file(const std::string& in, const std::string& out, const MedianOptions& o,
                         std::uint64_t max_memory, bool progress);

// median3d over the whole stack as one volume (each channel and frame of a hyperstack), in
// slabs of slices within max_memory; refuses a non-finite --cval for integer images.
FilterResult filter_file(const std::string& in, const std::string& out, const Median3DOptions& o,
                         std::uint64_t max_memory, bool progress);

// "median 5x5 replicate on cpu (CPU): 462x366x1 u8 in 9.8 ms: read 0.4, filter 3.1, write
// 0.6, fsync+rename 5.2 ms -> out.tif": the wall time and its parts; runs on a GPU list
// "CUDA start-up 215.0, " before the read.
std::string summary(const MedianOptions& o, const FilterResult& r, const std::string& out);
// "median 3x3x3 replicate on ..." / "median ellipsoid 2,2,1 replicate on ...".
std::string summary(const Median3DOptions& o, const FilterResult& r, const std::string& out);
// The same line after any description of the filter: "<what> on cpu (CPU): ... -> out.tif".
std::string summary(const std::string& what, const FilterResult& r, const std::string& out);

// printf-style formatting of one number ("%g", "%.1f").
std::string format_number(const char* format, double value);
// A size in bytes as messages show it: "1000 bytes", "512.0 MiB", "29.8 GiB".
std::string format_bytes(double bytes);

}  // namespace fastmedian::cli
