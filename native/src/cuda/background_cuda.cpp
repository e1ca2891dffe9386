// Host side of the CUDA background: per plane, the exact median (median_dispatch) or the two
// 1D passes of the separable smoother, each written transposed (the second through the output
// step). Device views run on the caller's stream; host views go through the plane pipeline
// (plane_pipeline.hpp), with scratch for each of its slots.
#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/median_dispatch.hpp"
#include "cuda/plane_pipeline.hpp"
#include "median_1d.cuh"
#include "semantics/constant_value.hpp"

namespace fastmedian::detail {

namespace {

struct Job {
    const Footprint& fp;
    bool separable;
    Border border;
    double cval;
    kernels::OutputMode mode;
    PixelType type;
    int width, height;
};

// Scratch: one plane, the exact median's (for the output step) or the separable smoother's
// columns pass (written transposed: width rows of height pixels), and the exact median's own.
// Stream-ordered for device views (from the library's pool: nothing to map afresh each call),
// otherwise allocated once for a pipeline slot.
struct Scratch {
    Scratch(bool stream_ordered, int height_)
        : height(height_), plane(stream_ordered), median(stream_ordered), windows(stream_ordered) {}
    // The plane's pitch (rows packed, so that its bytes are the image's) and rows.
    static std::int64_t pitch(const Job& j) {
        return static_cast<std::int64_t>(j.separable ? j.height : j.width) * pixel_size(j.type);
    }
    static std::int64_t rows(const Job& j) { return j.separable ? j.width : j.height; }
    // The bytes a row of a plane takes.
    static std::int64_t per_row(const Job& j) {
        return static_cast<std::int64_t>(j.width) * pixel_size(j.type) +
               (j.separable ? 0 : median_scratch_row_bytes(j.fp, j.type, j.width));
    }
    int height;  // of the planes it serves, at most
    ScratchMemory plane;
    ScratchMemory median;  // the exact median's own
    ScratchMemory windows;  // the 1D medians' windows, on GPUs whose blocks cannot hold them
};

// One plane: src (pitch sp) -> dst (pitch dp).
void plane(const Job& j, const void* src, std::int64_t sp, void* dst, std::int64_t dp,
           Scratch& s, cudaStream_t stream) {
    const int type = static_cast<int>(j.type);
    const std::int64_t kp = Scratch::pitch(j);
    void* const scratch = j.separable || j.mode.subtract
                              ? s.plane.get(static_cast<std::size_t>(kp * Scratch::rows(j)), stream)
                              : nullptr;
    if (!j.separable) {
        kernels::PlanesArgs a{};
        a.src = src;
        a.src_pitch = sp;
        a.dst = j.mode.subtract ? scratch : dst;
        a.dst_pitch = j.mode.subtract ? kp : dp;
        a.width = j.width;
        a.height = j.height;
        a.planes = 1;
        a.border = static_cast<int>(j.border);
        a.outside_key = outside_key(j.type, j.cval);
        check_launch(launch_median(a, j.fp, j.type, stream, s.median), "kernel launch (median)");
        if (!j.mode.subtract) return;
        kernels::LineArgs o{};
        o.src = scratch;
        o.src_pitch = kp;
        o.dst = dst;
        o.dst_pitch = dp;
        o.pixels = src;
        o.pixels_pitch = sp;
        o.width = j.width;
        o.height = j.height;
        o.mode = j.mode;
        check_launch(kernels::launch_median_output(o, type, stream), "kernel launch (output)");
        return;
    }
    // Down the columns into the scratch plane, transposed; then down its columns (the image's
    // rows), transposed back into dst through the output step: both passes read along
    // coalesced columns.
    kernels::LineArgs a{};
    a.border = static_cast<int>(j.border);
    a.outside_key = outside_key(j.type, j.cval);
    auto pass = [&](const void* in, std::int64_t in_pitch, void* out, std::int64_t out_pitch, int width,
                    int height, int radius) {
        a.src = in;
        a.src_pitch = in_pitch;
        a.dst = out;
        a.dst_pitch = out_pitch;
        a.width = width;
        a.height = height;
        a.radius = radius;
        const std::size_t windows = kernels::median_columns_windows_bytes(a, type);
        a.windows = windows > 0 ? s.windows.get(windows, stream) : nullptr;
        check_launch(kernels::launch_median_columns(a, type, stream), "kernel launch (1D median)");
    };
    pass(src, sp, scratch, kp, j.width, j.height, j.fp.radius_y);
    a.pixels = src;
    a.pixels_pitch = sp;
    a.mode = j.mode;
    pass(scratch, kp, dst, dp, j.height, j.width, j.fp.radius_x);
}

}  // namespace

void background_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                     bool separable, Border border, double cval, const kernels::OutputMode& mode,
                     const std::vector<int>& devices, void* cuda_stream) {
    const int device = devices.front();
    check(cudaSetDevice(device), "cudaSetDevice");
    const Job j{fp, separable, border, cval, mode, src.type, static_cast<int>(src.width),
                static_cast<int>(src.height)};
    if (src.memory == Memory::cuda) {
        check_device_pointer(src.data, device, "src.data");
        check_device_pointer(dst.data, device, "dst.data");
        Scratch scratch(true, j.height);
        const auto stream = cuda_stream != nullptr ? static_cast<cudaStream_t>(cuda_stream) : cudaStreamPerThread;
        for (std::int64_t z = 0; z < src.planes; ++z)
            plane(j, src.plane(z), src.row_stride, dst.plane(z), dst.row_stride, scratch, stream);
        // The filter's planes are the caller's: wait for the work that writes them.
        check(cudaStreamSynchronize(stream), "background on the GPU");
        return;
    }
    // A slot's planes run in order on its stream, so each slot needs scratch of its own, as tall
    // as its tallest band.
    std::vector<std::unique_ptr<Scratch>> scratch(static_cast<std::size_t>(pipeline_slots(devices.size())));
    filter_host_planes(src, dst, devices, {fp.radius_y, border, Scratch::per_row(j)}, [&](const DevicePlane& p) {
        Job band = j;
        band.height = static_cast<int>(p.rows);
        std::unique_ptr<Scratch>& s = scratch[static_cast<std::size_t>(p.slot)];
        if (!s || s->height < band.height) s = std::make_unique<Scratch>(false, band.height);
        plane(band, p.src, p.src_pitch, p.dst, p.dst_pitch, *s, p.stream);
    });
}

}  // namespace fastmedian::detail
