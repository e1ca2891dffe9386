// Host side of the CUDA temporal median: which kernel serves a window (the tuning), device
// views in place on the caller's stream, host views through the plane pipeline (bands of rows of
// every frame; tiles of pixels over all frames where a row of every frame does not fit), and
// the streaming form.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_util.hpp"
#include "cuda/plane_pipeline.hpp"
#include "fastmedian/errors.hpp"
#include "gpu_policy.hpp"
#include "temporal_median.cuh"

namespace fastmedian::detail {

namespace {

int type_index(PixelType type) { return static_cast<int>(type); }

// Windows of up to 10 frames: networks. Longer: the sliding median with its windows in shared
// memory, as many pixels per block as the policy's share holds (SlidingPolicy; at least 32, up
// to what the GPU's policy allows a block), else read from the frames.
cudaError_t launch_temporal(const kernels::TemporalArgs& a, PixelType type, cudaStream_t stream) {
    if (a.window <= 10) return kernels::launch_temporal_network(a, type_index(type), stream);
    const std::size_t column = std::size_t(a.window) * pixel_size(type);
    for (int threads : {256, 128, 64})
        if (column * threads <= kernels::active_policy().sliding.temporal_windows)
            return kernels::launch_temporal_sliding(a, type_index(type), threads, true, stream);
    const bool shared = column * 32 <= kernels::active_shared_per_block();
    return kernels::launch_temporal_sliding(a, type_index(type), shared ? 32 : 128, shared, stream);
}

kernels::TemporalArgs temporal_args(const ConstImageView& src, int window,
                                    const kernels::OutputMode& offset) {
    kernels::TemporalArgs a{};
    a.width = static_cast<int>(src.width);
    a.height = static_cast<int>(src.height);
    a.frames = src.planes;
    a.window = window;
    a.offset = offset;
    return a;
}

// Stacks so long that one row of every frame does not fit the device memory allowed: tiles of
// pixels (rows, and pieces of rows) over all frames, one after the other.
void temporal_host_tiles(const ConstImageView& src, const ImageView& dst, int window,
                         const kernels::OutputMode& offset, cudaStream_t stream) {
    const auto px = static_cast<std::int64_t>(pixel_size(src.type));
    const std::int64_t frames = src.planes;
    // A tile is w x h pixels over all frames, in and out; rows padded to 512 bytes by the pitch.
    const std::int64_t budget = static_cast<std::int64_t>(memory_budget(0.8));
    const std::int64_t per_pixel = 2 * frames * px;
    if (budget / per_pixel < 512 / px)
        throw Error(ErrorCode::unsupported,
                    "a stack of " + std::to_string(frames) + " frames needs more GPU memory for one "
                    "row of pixels than the " + std::to_string(budget) + " bytes available");
    const std::int64_t w = std::min(src.width, budget / per_pixel);
    const std::int64_t padded_row = (w * px + 511) / 512 * 512;
    const std::int64_t h = std::min(src.height, std::max<std::int64_t>(1, budget / (2 * frames * padded_row)));
    DeviceBuffer d_src(static_cast<std::size_t>(w * px), static_cast<std::size_t>(h * frames));
    DeviceBuffer d_dst(static_cast<std::size_t>(w * px), static_cast<std::size_t>(h * frames));
    kernels::TemporalArgs a = temporal_args(src, window, offset);
    a.src = d_src.get();
    a.src_pitch = d_src.pitch();
    a.src_frame_stride = d_src.pitch() * h;
    a.dst = d_dst.get();
    a.dst_pitch = d_dst.pitch();
    a.dst_frame_stride = d_dst.pitch() * h;
    for (std::int64_t y0 = 0; y0 < src.height; y0 += h) {
        for (std::int64_t x0 = 0; x0 < src.width; x0 += w) {
            a.width = static_cast<int>(std::min(w, src.width - x0));
            a.height = static_cast<int>(std::min(h, src.height - y0));
            const auto bytes = static_cast<std::size_t>(a.width * px);
            for (std::int64_t f = 0; f < frames; ++f)
                check(cudaMemcpy2DAsync(static_cast<char*>(d_src.get()) + f * a.src_frame_stride,
                                        d_src.pitch(), src.row(f, y0) + x0 * px,
                                        static_cast<std::size_t>(src.row_stride), bytes,
                                        static_cast<std::size_t>(a.height), cudaMemcpyHostToDevice, stream),
                      "cudaMemcpy2DAsync (upload)");
            check_launch(launch_temporal(a, src.type, stream), "kernel launch (temporal median)");
            for (std::int64_t f = 0; f < frames; ++f)
                check(cudaMemcpy2DAsync(dst.row(f, y0) + x0 * px, static_cast<std::size_t>(dst.row_stride),
                                        static_cast<char*>(d_dst.get()) + f * a.dst_frame_stride,
                                        d_dst.pitch(), bytes, static_cast<std::size_t>(a.height),
                                        cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpy2DAsync (download)");
        }
    }
    check(cudaStreamSynchronize(stream), "temporal median on the GPU");
}

// Host stacks: bands of rows of every frame through the plane pipeline, where a row of every
// frame fits the memory the pipeline may use.
void temporal_host_views(const ConstImageView& src, const ImageView& dst, int window,
                         const kernels::OutputMode& offset, int device) {
    const std::int64_t row = (src.width * static_cast<std::int64_t>(pixel_size(src.type)) + 511) / 512 * 512;
    if (2 * row * src.planes > static_cast<std::int64_t>(memory_budget(0.5))) {
        temporal_host_tiles(src, dst, window, offset, cudaStreamPerThread);
        return;
    }
    PlaneReach reach;
    reach.every_plane = true;
    filter_host_planes(src, dst, {device}, reach, [&](const DevicePlane& p) {
        kernels::TemporalArgs a = temporal_args(src, window, offset);
        a.height = static_cast<int>(p.rows);
        a.src = p.src;
        a.src_pitch = p.src_pitch;
        a.src_frame_stride = p.src_pitch * p.rows;
        a.dst = p.dst;
        a.dst_pitch = p.dst_pitch;
        a.dst_frame_stride = p.dst_pitch * p.rows;
        check_launch(launch_temporal(a, src.type, p.stream), "kernel launch (temporal median)");
    });
}

}  // namespace

void temporal_median_cuda(const ConstImageView& src, const ImageView& dst, int window,
                          const kernels::OutputMode& offset, int device, void* cuda_stream) {
    check(cudaSetDevice(device), "cudaSetDevice");
    if (src.memory == Memory::host) {
        temporal_host_views(src, dst, window, offset, device);
        return;
    }
    check_device_pointer(src.data, device, "src.data");
    check_device_pointer(dst.data, device, "dst.data");
    kernels::TemporalArgs a = temporal_args(src, window, offset);
    a.src = src.data;
    a.src_pitch = src.row_stride;
    a.src_frame_stride = src.plane_stride;
    a.dst = dst.data;
    a.dst_pitch = dst.row_stride;
    a.dst_frame_stride = dst.plane_stride;
    const auto stream = cuda_stream != nullptr ? static_cast<cudaStream_t>(cuda_stream) : cudaStreamPerThread;
    check_launch(launch_temporal(a, src.type, stream), "kernel launch (temporal median)");
    if (cuda_stream == nullptr) check(cudaStreamSynchronize(stream), "temporal median on the GPU");
}

// --- streaming form ---

struct TemporalStreamCuda::State {
    State(PixelType t, std::int64_t w, std::int64_t h, int n, const kernels::OutputMode& o, int d)
        : type(t), width(w), height(h), row_bytes(w * static_cast<std::int64_t>(pixel_size(t))),
          frame_bytes(row_bytes * h), window(n), offset(o), device(d) {}
    PixelType type;
    std::int64_t width, height, row_bytes, frame_bytes;
    int window;
    kernels::OutputMode offset;
    int device;
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    void* pinned_in = nullptr;
    void* pinned_out = nullptr;
    std::unique_ptr<DeviceBuffer> ring, out;

    ~State() {
        cudaSetDevice(device);
        if (stream != nullptr) cudaStreamSynchronize(stream);
        cudaFreeHost(pinned_in);
        cudaFreeHost(pinned_out);
        if (done != nullptr) cudaEventDestroy(done);
        if (stream != nullptr) cudaStreamDestroy(stream);
    }
};

TemporalStreamCuda::TemporalStreamCuda(PixelType type, std::int64_t width, std::int64_t height,
                                       int window, const kernels::OutputMode& offset,
                                       int device)
    : state_(std::make_unique<State>(type, width, height, window, offset, device)) {
    State& s = *state_;
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaMallocHost(&s.pinned_in, static_cast<std::size_t>(s.frame_bytes)), "cudaMallocHost");
    check(cudaMallocHost(&s.pinned_out, static_cast<std::size_t>(s.frame_bytes)), "cudaMallocHost");
    s.ring = std::make_unique<DeviceBuffer>(static_cast<std::size_t>(s.row_bytes),
                                            static_cast<std::size_t>(height * window));
    s.out = std::make_unique<DeviceBuffer>(static_cast<std::size_t>(s.row_bytes),
                                           static_cast<std::size_t>(height));
}

TemporalStreamCuda::~TemporalStreamCuda() = default;

void TemporalStreamCuda::start(const ConstImageView& frame, std::int64_t pushed) {
    State& s = *state_;
    check(cudaSetDevice(s.device), "cudaSetDevice");
    for (std::int64_t y = 0; y < s.height; ++y)
        std::memcpy(static_cast<char*>(s.pinned_in) + y * s.row_bytes, frame.row(0, y),
                    static_cast<std::size_t>(s.row_bytes));
    const std::int64_t ring_stride = s.ring->pitch() * s.height;
    char* slot = static_cast<char*>(s.ring->get()) + (pushed % s.window) * ring_stride;
    check(cudaMemcpy2DAsync(slot, s.ring->pitch(), s.pinned_in, s.row_bytes, s.row_bytes, s.height,
                            cudaMemcpyHostToDevice, s.stream),
          "cudaMemcpy2DAsync (upload)");
    kernels::TemporalArgs a{};
    a.src = s.ring->get();
    a.src_pitch = s.ring->pitch();
    a.src_frame_stride = ring_stride;
    a.dst = s.out->get();
    a.dst_pitch = s.out->pitch();
    a.width = static_cast<int>(s.width);
    a.height = static_cast<int>(s.height);
    a.frames = std::min<std::int64_t>(pushed + 1, s.window);
    a.offset = s.offset;
    check_launch(kernels::launch_temporal_frames(a, slot, type_index(s.type), s.stream),
          "kernel launch (temporal median)");
    check(cudaMemcpy2DAsync(s.pinned_out, s.row_bytes, s.out->get(), s.out->pitch(), s.row_bytes,
                            s.height, cudaMemcpyDeviceToHost, s.stream),
          "cudaMemcpy2DAsync (download)");
    check(cudaEventRecord(s.done, s.stream), "cudaEventRecord");
}

void TemporalStreamCuda::finish(const ImageView& out) {
    State& s = *state_;
    check(cudaEventSynchronize(s.done), "temporal median on the GPU");
    for (std::int64_t y = 0; y < s.height; ++y)
        std::memcpy(out.row(0, y), static_cast<char*>(s.pinned_out) + y * s.row_bytes,
                    static_cast<std::size_t>(s.row_bytes));
}

}  // namespace fastmedian::detail
