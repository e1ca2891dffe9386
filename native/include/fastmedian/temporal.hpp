// Temporal median: for every pixel, the median of the same pixel over a window of N frames (the
// planes of a stack). Removes static background and sensor pattern noise from time-lapse and
// single-molecule movies (what Fiji's FTM2 plugin does).
//
// Semantics (identical bits on every backend):
// - output frame t uses the N frames [s, s + N) with s = t - N/2 (integer division), moved
//   inward at the ends (s clamped to [0, T - N]) so that every output uses exactly N frames;
//   for odd N the window is centred on t, for even N it has one frame more before t than after;
// - the median is the element of rank floor((N-1)/2) (the lower middle for even N), floats
//   ordered as median2d orders them (NaN above +Inf, a NaN result written as 0x7FC00000);
// - mode subtract writes frame - median + offset: integer images use the offset rounded to the
//   nearest integer (halves away from zero) and clamp the result to the type's range; float
//   images compute (frame - median) + float(offset) in float, and write any NaN as 0x7FC00000.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

enum class TemporalMode { median, subtract };

const char* temporal_mode_name(TemporalMode mode) noexcept;
TemporalMode parse_temporal_mode(const std::string& name, const char* parameter = "mode");

struct TemporalOptions {
    int window = 5;                         // N frames, 1..kMaxWindow and at most the stack's planes
    TemporalMode mode = TemporalMode::median;
    double offset = 0.0;                    // added in mode subtract; finite, |offset| <= 1e9
    Backend backend = Backend::automatic;   // automatic: the first CUDA device if any, else CPU
    int device = 0;                         // CUDA device index, for Backend::cuda
    // For views in Memory::cuda only: a cudaStream_t to enqueue the work on, and the call
    // returns without waiting for it. nullptr: the call returns once the output is written.
    void* cuda_stream = nullptr;
    // Runs the slow per-pixel sorting reference on the CPU instead (host views only).
    bool reference = false;

    static constexpr int kMaxWindow = 65535;
};

// The first frame of output frame t's window in a stack of `frames` frames (window <= frames).
std::int64_t temporal_window_start(std::int64_t t, std::int64_t frames, int window) noexcept;

// Filters the stack `src` (planes are frames) into `dst`: same type, size and memory, no
// overlap. Host views on the CUDA backend are processed in bands of rows over all frames, so a
// stack larger than GPU memory works too (the environment variable FASTMEDIAN_CUDA_MEMORY_LIMIT,
// in bytes, caps what the band buffers may use). Throws Error as median2d does; `src` is never
// written.
RunInfo temporal_median(const ConstImageView& src, const ImageView& dst,
                        const TemporalOptions& options);

// Live acquisition: push frames one at a time and get, for each, the median of the last N
// frames pushed (of all of them while fewer than N have been pushed); mode subtract gives the
// pushed frame minus that median plus offset. Frames and outputs are host views of the size and
// type given at construction. On the CUDA backend the last N frames stay on the GPU.
//
// Not thread-safe: use one stream from one thread at a time (or lock around it); separate
// streams are independent. cuda_stream and reference in the options are not used.
class TemporalMedianStream {
public:
    TemporalMedianStream(PixelType type, std::int64_t width, std::int64_t height,
                         const TemporalOptions& options);
    ~TemporalMedianStream();
    TemporalMedianStream(TemporalMedianStream&&) noexcept;
    TemporalMedianStream& operator=(TemporalMedianStream&&) noexcept;

    // Adds `frame` and writes its result into `out`; returns when `out` is written.
    void push(const ConstImageView& frame, const ImageView& out);
    // Adds `frame` (copied before this returns) and starts computing its result without
    // waiting for it; fetch() waits for that result and writes it. One result can be pending:
    // push_async again before fetch() throws Error(invalid_argument).
    void push_async(const ConstImageView& frame);
    void fetch(const ImageView& out);

    std::int64_t frames_pushed() const noexcept;
    const RunInfo& run_info() const noexcept;

    class Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace fastmedian
