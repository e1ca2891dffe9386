// 2D convolution of every plane of a stack: a generic mask (any odd width and height up to
// kMaxMaskSize), or a separable one (a row mask and a column mask, two passes), with the
// Gaussian blur as the separable mask's main user.
//
// Semantics (identical bits on every backend):
// - true convolution, as scipy.ndimage.convolve: the mask is flipped, so with odd sizes
//   kw x kh and radii rx = kw/2, ry = kh/2,
//       out(x, y) = sum over j < kh, i < kw of mask[j][i] * in(x + rx - i, y + ry - j)
//   where mask[0] is the top row as written (ImageJ's Convolve text form) and in() reads
//   outside the image through the border mode (constant: cval rounded and clamped to the pixel
//   type, as for every filter of the library, then taken as a float);
// - accumulated in float, from 0, one fused multiply-add per mask element (fmaf, rounded once),
//   input rows from top to bottom and, within a row, from left to right;
// - separable: first the column mask along y into a float intermediate,
//       t(x, y) = sum over j < kh of column[j] * in(x, y + ry - j)   (for every x the row pass
//   reads, outside the image too), then the row mask along x,
//       out(x, y) = sum over i < kw of row[i] * t(x + rx - i, y),
//   each accumulated in that order as above;
// - normalize: every mask (each of the two for a separable one) is divided by its sum, in
//   double, before it is rounded to float; a sum of 0 is an error;
// - output: float32, or the input's type: integer outputs clamp to the type's range, then round
//   to nearest with halves away from zero (NaN becomes 0, +Inf the maximum); float outputs keep
//   IEEE results (NaN and Inf under the mask propagate, even under a zero weight, where
//   scipy 1.10 skips zero weights) and write every NaN as the quiet NaN 0x7FC00000;
// - Gaussian of standard deviation sigma: scipy.ndimage.gaussian_filter's mask (truncate 4.0):
//   radius r = int(4 * sigma + 0.5), weights exp(-x^2 / (2 sigma^2)) for x = -r..r divided by
//   their sum (in double), rounded to float; used as both the row and the column mask.
#pragma once

#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

// The output's pixel type: the input's own, or float32.
enum class ConvolveOutput { same, f32 };

struct ConvolveOptions {
    // Generic mask: mask_height rows of mask_width values, row after row, the top row first.
    // Both sizes odd, 1..kMaxMaskSize; values finite.
    std::vector<float> mask;
    int mask_width = 0;
    int mask_height = 0;
    // Separable mask, used when `mask` is empty: row_mask runs along x (kw values) and
    // column_mask along y (kh values, the top first); odd lengths 1..kMaxSeparableLength.
    std::vector<float> row_mask;
    std::vector<float> column_mask;
    bool normalize = false;                 // divide each mask by its sum (not 0)
    Border border = Border::replicate;
    double cval = 0.0;                      // the outside value for Border::constant
    ConvolveOutput output = ConvolveOutput::same;  // dst.type: src.type, or f32
    Backend backend = Backend::automatic;   // automatic: the first CUDA device if any, else CPU
    int device = 0;                         // CUDA device index, for Backend::cuda
    // Host views on CUDA: the planes (or bands of rows) are spread over these devices, each
    // taking the next (empty: `device` alone). Distinct indices. Views in Memory::cuda use `device`.
    std::vector<int> devices;
    // For views in Memory::cuda only: a cudaStream_t to enqueue the work on, and the call
    // returns without waiting for it. nullptr: the call returns once the output is written.
    void* cuda_stream = nullptr;
    // Runs the slow, plain-loop CPU reference instead, whatever `backend` says (views must be
    // in host memory): for tests that check the fast backends bit for bit.
    bool reference = false;

    static constexpr int kMaxMaskSize = 63;
    static constexpr int kMaxSeparableLength = 1023;

    // A generic mask of width x height values (row after row, the top row first).
    static ConvolveOptions generic(std::vector<float> values, int width, int height);
    // A separable mask: `row` along x, `column` along y.
    static ConvolveOptions separable(std::vector<float> row, std::vector<float> column);
    // The Gaussian blur of standard deviation sigma (gaussian_mask as row and column mask).
    static ConvolveOptions gaussian(double sigma);
};

// scipy's Gaussian mask (truncate 4.0) for 0 < sigma <= kMaxGaussianSigma: 2r + 1 values,
// r = int(4 * sigma + 0.5). Throws Error(invalid_argument) naming "sigma" otherwise.
constexpr double kMaxGaussianSigma = 127.0;
std::vector<float> gaussian_mask(double sigma);

// Convolves every plane of `src` into `dst` (same size and memory, no overlap; dst.type is
// src.type, or f32 for ConvolveOutput::f32). Views in Memory::cuda run on the CUDA device
// options.device. Throws Error for bad arguments (naming the parameter) and for backend
// failures; `dst` is then unspecified but `src` is never written.
RunInfo convolve(const ConstImageView& src, const ImageView& dst, const ConvolveOptions& options);

}  // namespace fastmedian
