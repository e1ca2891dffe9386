// Host side of the CUDA background: per plane, the exact median (median_dispatch) or the two
// 1D passes of the separable smoother into scratch planes, then the output step. Device views
// run on the caller's stream; host views go through the plane pipeline (plane_pipeline.hpp),
// with scratch planes for each of its slots.
#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "core/constant_value.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/median_dispatch.hpp"
#include "cuda/plane_pipeline.hpp"
#include "median_1d.cuh"

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

// Scratch planes: the exact median's (for the output step), or the separable passes' (the
// columns' medians, their transpose, and its columns' medians).
struct Scratch {
    Scratch(const Job& j)
        : height(j.height),
          columns(row_bytes(j, j.width), static_cast<std::size_t>(j.height)),
          turned(row_bytes(j, j.separable ? j.height : 1), static_cast<std::size_t>(j.separable ? j.width : 1)),
          rows(row_bytes(j, j.separable ? j.height : 1), static_cast<std::size_t>(j.separable ? j.width : 1)),
          median(false) {}
    static std::size_t row_bytes(const Job& j, int pixels) {
        return static_cast<std::size_t>(pixels) * pixel_size(j.type);
    }
    // The bytes a row of a plane takes.
    static std::int64_t per_row(const Job& j) {
        return static_cast<std::int64_t>(row_bytes(j, j.width)) * (j.separable ? 3 : 1) +
               (j.separable ? 0 : median_scratch_row_bytes(j.fp, j.type, j.width));
    }
    int height;  // of the planes it serves, at most
    DeviceBuffer columns, turned, rows;
    ScratchMemory median;  // the exact median's own (freed once its work is done)
};

// One plane: src (pitch sp) -> dst (pitch dp).
void plane(const Job& j, const void* src, std::int64_t sp, void* dst, std::int64_t dp,
           Scratch& s, cudaStream_t stream) {
    const int type = static_cast<int>(j.type);
    void* scratch = s.columns.get();
    const std::int64_t kp = s.columns.pitch();
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
    // Down the columns, transpose, down the columns again (the rows), transpose back with the
    // output step: every pass reads along coalesced columns.
    kernels::LineArgs a{};
    a.radius = j.fp.radius_y;
    a.border = static_cast<int>(j.border);
    a.outside_key = outside_key(j.type, j.cval);
    auto pass = [&](const void* in, std::int64_t in_pitch, void* out, std::int64_t out_pitch,
                    int width, int height) {
        a.src = in;
        a.src_pitch = in_pitch;
        a.dst = out;
        a.dst_pitch = out_pitch;
        a.width = width;
        a.height = height;
    };
    pass(src, sp, s.columns.get(), s.columns.pitch(), j.width, j.height);
    check_launch(kernels::launch_median_1d(a, type, true, stream), "kernel launch (1D median)");
    pass(s.columns.get(), s.columns.pitch(), s.turned.get(), s.turned.pitch(), j.height, j.width);
    check_launch(kernels::launch_transpose_output(a, type, stream), "kernel launch (transpose)");
    pass(s.turned.get(), s.turned.pitch(), s.rows.get(), s.rows.pitch(), j.height, j.width);
    check_launch(kernels::launch_median_1d(a, type, true, stream), "kernel launch (1D median)");
    pass(s.rows.get(), s.rows.pitch(), dst, dp, j.width, j.height);
    a.pixels = src;
    a.pixels_pitch = sp;
    a.mode = j.mode;
    check_launch(kernels::launch_transpose_output(a, type, stream), "kernel launch (transpose)");
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
        Scratch scratch(j);
        const auto stream = cuda_stream != nullptr ? static_cast<cudaStream_t>(cuda_stream) : cudaStreamPerThread;
        for (std::int64_t z = 0; z < src.planes; ++z)
            plane(j, src.plane(z), src.row_stride, dst.plane(z), dst.row_stride, scratch, stream);
        // The scratch planes are freed when this returns: wait for the work that uses them.
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
        if (!s || s->height < band.height) s = std::make_unique<Scratch>(band);
        plane(band, p.src, p.src_pitch, p.dst, p.dst_pitch, *s, p.stream);
    });
}

}  // namespace fastmedian::detail
