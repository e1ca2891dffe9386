// Host side of the CUDA median. Views in device memory are filtered in place on the caller's
// stream; host views go through the plane pipeline (plane_pipeline.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <deque>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/median_dispatch.hpp"
#include "cuda/output_box_cuda.hpp"
#include "cuda/plane_pipeline.hpp"
#include "semantics/constant_value.hpp"

namespace fastmedian::detail {

namespace {

kernels::PlanesArgs planes_args(const ConstImageView& src, Border border, double cval) {
    kernels::PlanesArgs a{};
    a.width = static_cast<int>(src.width);
    a.height = static_cast<int>(src.height);
    a.border = static_cast<int>(border);
    a.outside_key = outside_key(src.type, cval);
    return a;
}

void median_device_views(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                         Border border, double cval, cudaStream_t stream) {
    kernels::PlanesArgs a = planes_args(src, border, cval);
    a.src_pitch = src.row_stride;
    a.src_plane_stride = src.plane_stride;
    a.dst_pitch = dst.row_stride;
    a.dst_plane_stride = dst.plane_stride;
    ScratchMemory scratch(true);  // released in the stream's order: the call may not wait
    constexpr std::int64_t kMaxPlanesPerLaunch = 65535;  // grid.z
    for (std::int64_t z = 0; z < src.planes; z += kMaxPlanesPerLaunch) {
        a.src = src.plane(z);
        a.dst = dst.plane(z);
        a.planes = static_cast<int>(std::min(kMaxPlanesPerLaunch, src.planes - z));
        check_launch(launch_median(a, fp, src.type, stream, scratch), "kernel launch (median)");
    }
}

void median_host_views(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                       Border border, double cval, const std::vector<int>& devices) {
    kernels::PlanesArgs a = planes_args(src, border, cval);
    a.planes = 1;
    // A slot's planes run one after the other: scratch of its own for each.
    std::deque<ScratchMemory> scratch;
    for (int s = 0; s < pipeline_slots(devices.size()); ++s) scratch.emplace_back(false);
    const PlaneReach reach{fp.radius_y, border, median_scratch_row_bytes(fp, src.type, a.width)};
    filter_host_planes(src, dst, devices, reach, [&](const DevicePlane& p) {
        kernels::PlanesArgs plane = a;
        plane.height = static_cast<int>(p.rows);
        plane.src = p.src;
        plane.src_pitch = p.src_pitch;
        plane.dst = p.dst;
        plane.dst_pitch = p.dst_pitch;
        check_launch(launch_median(plane, fp, src.type, p.stream, scratch[static_cast<std::size_t>(p.slot)]),
                     "kernel launch (median)");
    });
}

}  // namespace

void median2d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                   Border border, double cval, const std::vector<int>& devices, void* cuda_stream,
                   const Origin& origin) {
    const int device = devices.front();
    check(cudaSetDevice(device), "cudaSetDevice");
    const auto given = static_cast<cudaStream_t>(cuda_stream);
    const cudaStream_t stream = given != nullptr ? given : cudaStreamPerThread;
    if (src.memory == Memory::cuda) {
        check_device_pointer(src.data, device, "src.data");
        check_device_pointer(dst.data, device, "dst.data");
    }
    auto filter = [&](const ConstImageView& in, const ImageView& out) {
        if (in.memory == Memory::cuda) median_device_views(in, out, fp, border, cval, stream);
        else median_host_views(in, out, fp, border, cval, devices);
    };
    if (whole_output(src, dst, origin))
        filter(src, dst);
    else
        filter_box_cuda(source_part(src, dst, origin, fp.radius_x, fp.radius_y, 0, border), dst,
                        stream, filter);
    if (src.memory == Memory::cuda && given == nullptr)
        check(cudaStreamSynchronize(cudaStreamPerThread), "median on the GPU");
}

}  // namespace fastmedian::detail
