// Host side of the CUDA 3D median. Views in device memory are filtered on the caller's stream;
// host volumes are copied to the device (whole, or in slabs of planes when they do not fit),
// filtered and copied back.
#include <cuda_runtime_api.h>

#include <algorithm>

#include "border_index.cuh"
#include "core/constant_value.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/plane_pipeline.hpp"
#include "median3d_select.cuh"
#include "median3d_tiled.cuh"

namespace fastmedian::detail {

namespace {

// Runs the 3D median on volumes already on the device (a.src, a.dst and their strides set):
// the generated tiled network where one serves the window, else the generic selection.
void launch_volume(kernels::VolumeArgs a, PixelType type, const Footprint3D& fp,
                   cudaStream_t stream) {
    const auto tiled = kernels::tiled3d::launch_for(fp.radius_z, fp.radius_y, fp.half_width.data(),
                                                    static_cast<int>(fp.half_width.size()));
    if (tiled != nullptr) {
        const cudaError_t e = tiled(type, a, stream);
        if (e != cudaErrorInvalidConfiguration) return check_launch(e, "kernel launch (median3d, tiled)");
    }
    DeviceBuffer runs(fp.half_width.size() * sizeof(int), 1);
    check(cudaMemcpyAsync(runs.get(), fp.half_width.data(), fp.half_width.size() * sizeof(int),
                          cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync (window)");
    const kernels::Runs3DWindow w{fp.radius_x, fp.radius_y, fp.radius_z,
                                  static_cast<int>(fp.rank()), static_cast<const int*>(runs.get())};
    constexpr int kMaxPlanesPerLaunch = 65535;  // grid.z
    for (int z = 0; z < a.depth; z += kMaxPlanesPerLaunch) {
        a.first_plane = z;
        const int planes = std::min(kMaxPlanesPerLaunch, a.depth - z);
        check_launch(kernels::launch_median3d_select(type, a, planes, w, stream), "kernel launch (median3d)");
    }
    // The window table is freed when `runs` goes; cudaFree waits for the kernels using it.
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

// Host volumes go to the device in slabs of planes, each with the planes around it that its
// outputs read (the volume's own border planes beyond its first and last), as many at once as
// the device memory allows: the whole volume when it fits.
void median3d_host_views(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                         Border border, kernels::VolumeArgs a) {
    const std::size_t row_bytes = static_cast<std::size_t>(src.width) * pixel_size(src.type);
    const auto height = static_cast<std::size_t>(src.height);
    const std::int64_t planes = src.planes, halo = fp.radius_z;
    const std::int64_t plane_bytes = 2 * static_cast<std::int64_t>((row_bytes + 511) / 512 * 512 * height);
    const auto budget = static_cast<std::int64_t>(memory_budget(0.8));
    const std::int64_t slab = planes * plane_bytes <= budget
                                  ? planes
                                  : std::clamp<std::int64_t>(budget / plane_bytes - 2 * halo, 1, planes);
    const std::int64_t room = slab == planes ? planes : slab + 2 * halo;  // device planes
    DeviceBuffer d_src(row_bytes, height * static_cast<std::size_t>(room));
    DeviceBuffer d_dst(row_bytes, height * static_cast<std::size_t>(room));
    a.src = d_src.get();
    a.src_pitch = d_src.pitch();
    a.src_plane_stride = d_src.pitch() * src.height;
    a.dst = d_dst.get();
    a.dst_pitch = d_dst.pitch();
    a.dst_plane_stride = d_dst.pitch() * src.height;
    const cudaStream_t stream = cudaStreamPerThread;
    for (std::int64_t z0 = 0; z0 < planes; z0 += slab) {
        const std::int64_t z1 = std::min(planes, z0 + slab);
        const auto [top, bottom] = slab < planes ? halo_range(z0, z1, halo, planes, border)
                                                 : HaloRange{0, planes};
        for (std::int64_t i = 0; i < bottom - top; ++i)
            check(cudaMemcpy2DAsync(static_cast<char*>(d_src.get()) + i * a.src_plane_stride,
                                    static_cast<std::size_t>(d_src.pitch()),
                                    src.plane(kernels::border_index(top + i, planes, static_cast<int>(border))),
                                    static_cast<std::size_t>(src.row_stride), row_bytes, height,
                                    cudaMemcpyHostToDevice, stream),
                  "cudaMemcpy2DAsync (upload)");
        a.depth = static_cast<int>(bottom - top);
        launch_volume(a, src.type, fp, stream);
        for (std::int64_t z = z0; z < z1; ++z)
            check(cudaMemcpy2DAsync(dst.plane(z), static_cast<std::size_t>(dst.row_stride),
                                    static_cast<char*>(d_dst.get()) + (z - top) * a.dst_plane_stride,
                                    static_cast<std::size_t>(d_dst.pitch()), row_bytes, height,
                                    cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpy2DAsync (download)");
        check(cudaStreamSynchronize(stream), "median3d on the GPU");  // before the next slab's upload
    }
}

}  // namespace

void median3d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                   Border border, double cval, int device, void* cuda_stream) {
    check(cudaSetDevice(device), "cudaSetDevice");
    kernels::VolumeArgs a = volume_args(src, border, cval);
    if (src.memory == Memory::cuda) {
        check_device_pointer(src.data, device, "src.data");
        check_device_pointer(dst.data, device, "dst.data");
        a.src = src.data;
        a.src_pitch = src.row_stride;
        a.src_plane_stride = src.plane_stride;
        a.dst = dst.data;
        a.dst_pitch = dst.row_stride;
        a.dst_plane_stride = dst.plane_stride;
        const auto stream = static_cast<cudaStream_t>(cuda_stream);
        launch_volume(a, src.type, fp, stream != nullptr ? stream : cudaStreamPerThread);
        if (stream == nullptr) check(cudaStreamSynchronize(cudaStreamPerThread), "median3d on the GPU");
        return;
    }
    median3d_host_views(src, dst, fp, border, a);
}

}  // namespace fastmedian::detail
