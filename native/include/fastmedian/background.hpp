// Large-window median background: estimate uneven illumination or autofluorescence with a
// median over a large window (64 x 64 and up) and subtract it.
//
// Semantics (identical bits on every backend):
// - method exact: median2d with the window and border given (squares and ImageJ circles);
// - method separable (approximate; squares only): a 1D median of size k along y, then a 1D
//   median of size k along x of that result, both with the border given (constant: cval at
//   both passes). 1D medians follow median2d's order and rank rules;
// - output background: the background itself; output subtract: input - background + offset,
//   where integer images use the offset rounded to nearest (halves away from zero) and clamp to
//   the type's range, and float images compute (input - background) + float(offset) in float
//   and write any NaN as 0x7FC00000. Stacks are processed plane by plane.
#pragma once

#include <string>
#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

enum class BackgroundMethod { exact, separable };
enum class BackgroundOutput { subtract, background };

const char* background_method_name(BackgroundMethod method) noexcept;
BackgroundMethod parse_background_method(const std::string& name, const char* parameter = "method");
const char* background_output_name(BackgroundOutput output) noexcept;
BackgroundOutput parse_background_output(const std::string& name, const char* parameter = "output");

struct BackgroundOptions {
    Window window = Window::square(65);     // separable: squares only
    BackgroundMethod method = BackgroundMethod::exact;
    BackgroundOutput output = BackgroundOutput::subtract;
    double offset = 0.0;                    // added in output subtract; finite, |offset| <= 1e9
    Border border = Border::replicate;
    double cval = 0.0;                      // the outside value for Border::constant
    Backend backend = Backend::automatic;
    int device = 0;
    // Host views on CUDA: the planes (or bands of rows) are spread over these devices, each
    // taking the next (empty: `device` alone). Distinct indices. Views in Memory::cuda use `device`.
    std::vector<int> devices;
    // For views in Memory::cuda only, as in MedianOptions.
    void* cuda_stream = nullptr;
    // Runs the simple sort-based CPU references instead (host views only).
    bool reference = false;
};

// Filters `src` into `dst` (same type, size and memory; no overlap). Throws Error as median2d
// does; `src` is never written.
RunInfo background(const ConstImageView& src, const ImageView& dst, const BackgroundOptions& options);

// The separable median smoother alone: a 1D median of options.window.size (a square window)
// along y, then along x; the background of method separable.
RunInfo median_separable(const ConstImageView& src, const ImageView& dst,
                         const MedianOptions& options);

}  // namespace fastmedian
