// What a filter call may choose: the window, the border mode and the backend.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fastmedian {

// How pixels outside the image are read (scipy.ndimage names in brackets):
//   replicate  a a a | a b c d | d d d   (nearest; ImageJ's RankFilters)
//   reflect    b a | a b c d | d c       (reflect)
//   mirror     c b | a b c d | c b       (mirror)
//   constant   v v | a b c d | v v       (constant, v = cval converted to the pixel type)
//   wrap       c d | a b c d | a b       (wrap)
// Windows larger than the image keep extending the same way (periodically for reflect, mirror
// and wrap), as scipy does.
enum class Border { replicate, reflect, mirror, constant, wrap };

const char* border_name(Border border) noexcept;
// Accepts our names and scipy's ("nearest" for replicate); throws Error naming `parameter`.
Border parse_border(const std::string& name, const char* parameter = "border");

// A 2D window centred on the output pixel.
struct Window {
    enum class Shape { square, circle };
    Shape shape = Shape::square;
    int size = 3;         // square: side length k (odd, 1..kMaxSize)
    double radius = 0.0;  // circle: radius r as ImageJ's RankFilters reads it (0..kMaxRadius)

    static constexpr int kMaxSize = 1023;
    static constexpr double kMaxRadius = 511.0;

    static Window square(int k) { Window w; w.shape = Shape::square; w.size = k; return w; }
    static Window circle(double r) { Window w; w.shape = Shape::circle; w.radius = r; return w; }
};

// The window's pixels as rows of centred runs: row i (dy = i - (rows - 1) / 2) covers
// dx in [-h[i], +h[i]]. For a circle this is ImageJ's RankFilters mask ("line radii").
// Throws Error naming the parameter for an invalid window.
std::vector<int> window_half_widths(const Window& window);

// cpu runs on every hardware thread, or on n of them where the environment variable
// FASTMEDIAN_CPU_THREADS is n (read by each call; e.g. 1 for one core per Dask worker); the
// results are the same bits.
enum class Backend { automatic, cpu, cuda };

const char* backend_name(Backend backend) noexcept;
Backend parse_backend(const std::string& name, const char* parameter = "backend");

// A box of a filter's output, for the options' `origin`: when set, dst's pixel (x, y) of plane z
// is the output at (x + origin.x, y + origin.y) of plane z + origin.plane, dst's size being the
// box's; unset (the default), dst is all of the output, as large as src. The border mode applies
// at src's edges and the pixels of src around the box are read as they are, so a block of a
// large volume, given with the pixels its window reaches beyond it (its halo), comes out
// exactly as in the whole volume, with no copy of either.
struct Origin {
    std::int64_t x = 0, y = 0, plane = 0;
};

struct MedianOptions {
    Window window = Window::square(3);
    Border border = Border::replicate;
    double cval = 0.0;                      // the outside value for Border::constant
    Backend backend = Backend::automatic;   // automatic: the first CUDA device if any, else CPU
    int device = 0;                         // CUDA device index, for Backend::cuda
    // Host views on CUDA: the planes (or bands of rows) are spread over these devices, each
    // taking the next (empty: `device` alone). Distinct indices. Views in Memory::cuda use `device`.
    std::vector<int> devices;
    std::optional<Origin> origin;  // set: dst is the box of the output from here (above)
    // For views in Memory::cuda only: a cudaStream_t to enqueue the work on, and the call
    // returns without waiting for it. nullptr: the call returns once the output is written.
    void* cuda_stream = nullptr;
    // Runs the slow, sort-based CPU reference instead, whatever `backend` says (views must be
    // in host memory): for tests that check the fast backends bit for bit.
    bool reference = false;
};

// What actually ran, for logs ("median 3x3 on cuda:0 NVIDIA H100 in 1.2 ms").
struct RunInfo {
    Backend backend = Backend::cpu;  // cpu or cuda, never automatic
    int device = -1;                 // CUDA device index, -1 for the CPU
    std::vector<int> devices;        // every CUDA device the call used (the first is `device`)
    std::string device_name;         // "CPU" or the GPU's name
};

}  // namespace fastmedian
