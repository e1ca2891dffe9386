// Host side of the CUDA 3D median. Views in device memory are filtered on the caller's stream;
// host volumes go through the plane pipeline in bands of rows (plane_pipeline.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <optional>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/output_box_cuda.hpp"
#include "cuda/plane_pipeline.hpp"
#include "median3d_padded.cuh"
#include "median3d_select.cuh"
#include "median3d_tiled.cuh"
#include "semantics/constant_value.hpp"

namespace fastmedian::detail {

namespace {

// The window's row runs, for the generic selection: a device table of them, copied on `stream`.
struct WindowRuns {
    WindowRuns(const Footprint3D& fp, cudaStream_t stream) : table(fp.half_width.size() * sizeof(int), 1) {
        check(cudaMemcpyAsync(table.get(), fp.half_width.data(), fp.half_width.size() * sizeof(int),
                              cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync (window)");
    }
    DeviceBuffer table;
};

// The generated tiled network's launch for the window, nullptr if none serves it.
kernels::tiled3d::Launch tiled_launch(const Footprint3D& fp) {
    return kernels::tiled3d::launch_for(fp.radius_z, fp.radius_y, fp.half_width.data(),
                                        static_cast<int>(fp.half_width.size()));
}

// Calls launch(a, planes) for the output planes in launches of at most 65535 (grid.z), each
// with a.first_plane set, and checks each launch.
template <class Launch>
void over_planes(kernels::VolumeArgs a, const char* what, Launch launch) {
    constexpr int kMaxPlanesPerLaunch = 65535;  // grid.z
    for (int z = 0; z < a.depth; z += kMaxPlanesPerLaunch) {
        a.first_plane = z;
        check_launch(launch(a, std::min(kMaxPlanesPerLaunch, a.depth - z)), what);
    }
}

// Runs the 3D median on volumes already on the device (a.src, a.dst and their strides set):
// the generated tiled network where one serves the window, else the padded networks for
// windows of up to kMaxPaddedWindow voxels, else the generic selection over `runs`, or when
// that is null over a table of its own (freed on return: cudaFree waits for the kernels that
// read it).
void launch_volume(kernels::VolumeArgs a, PixelType type, const Footprint3D& fp, const WindowRuns* runs,
                   cudaStream_t stream) {
    const auto tiled = tiled_launch(fp);
    if (tiled != nullptr) {
        const cudaError_t e = tiled(type, a, stream);
        if (e != cudaErrorInvalidConfiguration) return check_launch(e, "kernel launch (median3d, tiled)");
    }
    if (kernels::median3d_padded_serves(type, static_cast<int>(fp.count), fp.radius_x, fp.radius_y,
                                        fp.radius_z, a.height))
        return over_planes(a, "kernel launch (median3d, padded)",
                           [&](const kernels::VolumeArgs& part, int planes) {
                               return kernels::launch_median3d_padded(type, part, planes, fp.half_width.data(),
                                                                      fp.radius_x, fp.radius_y, fp.radius_z, stream);
                           });
    std::optional<WindowRuns> own;
    if (runs == nullptr) runs = &own.emplace(fp, stream);
    const kernels::Runs3DWindow w{fp.radius_x, fp.radius_y, fp.radius_z,
                                  static_cast<int>(fp.rank()), static_cast<const int*>(runs->table.get())};
    over_planes(a, "kernel launch (median3d)", [&](const kernels::VolumeArgs& part, int planes) {
        return kernels::launch_median3d_select(type, part, planes, w, stream);
    });
}

kernels::VolumeArgs volume_args(const ConstImageView& src, Border border, double cval) {
    kernels::VolumeArgs a{};
    a.width = static_cast<int>(src.width);
    a.height = static_cast<int>(src.height);
    a.depth = static_cast<int>(src.planes);
    a.border = static_cast<int>(border);
    a.outside_key = outside_key(src.type, cval);
    return a;
}

// Host volumes go through the plane pipeline in bands of rows of every plane, each with the rows
// around it that its outputs read: the workers' staging, uploads, kernels and downloads overlap.
// The band's edge rows are the image's own or its border's (constant: the band stops at the
// image's edge, where the kernel applies the constant), so its kept outputs are the volume's.
void median3d_host_views(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                         Border border, const kernels::VolumeArgs& a, int device) {
    // One table for every band, copied before the workers' streams read it.
    const WindowRuns runs(fp, cudaStreamPerThread);
    check(cudaStreamSynchronize(cudaStreamPerThread), "cudaMemcpyAsync (window)");
    PlaneReach reach;
    reach.halo_rows = fp.radius_y;
    reach.border = border;
    reach.every_plane = true;
    filter_host_planes(src, dst, {device}, reach, [&](const DevicePlane& p) {
        kernels::VolumeArgs band = a;
        band.src = p.src;
        band.src_pitch = p.src_pitch;
        band.src_plane_stride = p.src_pitch * p.rows;
        band.dst = p.dst;
        band.dst_pitch = p.dst_pitch;
        band.dst_plane_stride = p.dst_pitch * p.rows;
        band.height = static_cast<int>(p.rows);
        band.depth = static_cast<int>(p.planes);
        launch_volume(band, src.type, fp, &runs, p.stream);
    });
}

}  // namespace

void median3d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                   Border border, double cval, int device, void* cuda_stream,
                   const Origin& origin) {
    // Windows one plane deep without a 3D network (which the ellipsoids r, r, 0 have) take the
    // 2D median's paths.
    if (const auto planar = tiled_launch(fp) != nullptr ? std::nullopt : planar_footprint(fp))
        return median2d_cuda(src, dst, *planar, border, cval, {device}, cuda_stream, origin);
    check(cudaSetDevice(device), "cudaSetDevice");
    const auto given = static_cast<cudaStream_t>(cuda_stream);
    const cudaStream_t stream = given != nullptr ? given : cudaStreamPerThread;
    if (src.memory == Memory::cuda) {
        check_device_pointer(src.data, device, "src.data");
        check_device_pointer(dst.data, device, "dst.data");
    }
    auto filter = [&](const ConstImageView& in, const ImageView& out) {
        kernels::VolumeArgs a = volume_args(in, border, cval);
        if (in.memory == Memory::cuda) {
            a.src = in.data;
            a.src_pitch = in.row_stride;
            a.src_plane_stride = in.plane_stride;
            a.dst = out.data;
            a.dst_pitch = out.row_stride;
            a.dst_plane_stride = out.plane_stride;
            launch_volume(a, in.type, fp, nullptr, stream);
        } else {
            median3d_host_views(in, out, fp, border, a, device);
        }
    };
    if (whole_output(src, dst, origin))
        filter(src, dst);
    else
        filter_box_cuda(source_part(src, dst, origin, fp.radius_x, fp.radius_y, fp.radius_z, border),
                        dst, stream, filter);
    if (src.memory == Memory::cuda && given == nullptr)
        check(cudaStreamSynchronize(cudaStreamPerThread), "median3d on the GPU");
}

}  // namespace fastmedian::detail
