#include "cuda/plane_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/cuda_util.hpp"
#include "cuda/host_copy.hpp"
#include "cuda/worker_pool.hpp"

namespace fastmedian::detail {

namespace {

// Host memory the device can copy from or to asynchronously.
bool is_pinned(const void* p) {
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, p);
    cudaGetLastError();
    return e == cudaSuccess && attr.type == cudaMemoryTypeHost;
}

class PinnedBuffer {
public:
    ~PinnedBuffer() { cudaFreeHost(ptr_); }
    void* get() const { return ptr_; }
    // Room for at least `bytes`; the contents are not kept.
    void* reserve(std::size_t bytes) {
        if (bytes > size_) {
            cudaFreeHost(ptr_);
            ptr_ = nullptr;
            size_ = 0;
            check(cudaMallocHost(&ptr_, bytes), "cudaMallocHost (staging)");
            size_ = bytes;
        }
        return ptr_;
    }

private:
    void* ptr_ = nullptr;
    std::size_t size_ = 0;
};

// A device plane of at least width_bytes x rows, kept while it fits.
class DevicePlaneBuffer {
public:
    const DeviceBuffer& reserve(std::size_t width_bytes, std::size_t rows) {
        if (!buffer_ || width_bytes > width_bytes_ || rows > rows_) {
            buffer_.reset();
            buffer_ = std::make_unique<DeviceBuffer>(width_bytes, rows);
            width_bytes_ = width_bytes;
            rows_ = rows;
        }
        return *buffer_;
    }

private:
    std::unique_ptr<DeviceBuffer> buffer_;
    std::size_t width_bytes_ = 0, rows_ = 0;
};

struct Slot {
    Slot() {
        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
    }
    ~Slot() {  // the buffers go after this: nothing may still be copying into them
        if (stream != nullptr) cudaStreamSynchronize(stream);
        if (done != nullptr) cudaEventDestroy(done);
        if (stream != nullptr) cudaStreamDestroy(stream);
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    PinnedBuffer in, out;
    DevicePlaneBuffer d_in, d_out;
};

struct Context {
    explicit Context(int device) : device(device), slots(workers()), pool(workers()) {}
    // A worker per core, up to kMaxPipelineSlots: each stages its planes on its own core.
    static int workers() {
        return static_cast<int>(std::clamp<unsigned>(std::thread::hardware_concurrency(), 2,
                                                     kMaxPipelineSlots));
    }
    int device;
    std::vector<Slot> slots;
    WorkerPool pool;
};

std::mutex contexts_mutex;
// By device. Never destroyed: at exit the CUDA runtime may already be gone.
auto& idle_contexts = *new std::map<int, std::vector<std::unique_ptr<Context>>>;

// A context of `device` for one call: an idle one, or a new one; back to the idle ones after a
// call that succeeded, dropped after one that failed.
class Lease {
public:
    explicit Lease(int device) {
        {
            const std::lock_guard<std::mutex> lock(contexts_mutex);
            auto& idle = idle_contexts[device];
            if (!idle.empty()) {
                context_ = std::move(idle.back());
                idle.pop_back();
            }
        }
        if (!context_) context_ = std::make_unique<Context>(device);
    }
    ~Lease() {
        if (!succeeded_) return;  // context_ goes, with whatever it held
        const std::lock_guard<std::mutex> lock(contexts_mutex);
        idle_contexts[context_->device].push_back(std::move(context_));
    }
    Context& operator*() { return *context_; }
    void succeeded() { succeeded_ = true; }

private:
    std::unique_ptr<Context> context_;
    bool succeeded_ = false;
};

}  // namespace

void filter_host_planes(const ConstImageView& src, const ImageView& dst, int device,
                        const PlaneFilter& filter) {
    Lease lease(device);
    Context& c = *lease;
    const std::int64_t rows = src.height;
    const std::int64_t in_bytes = src.width * static_cast<std::int64_t>(pixel_size(src.type));
    const std::int64_t out_bytes = dst.width * static_cast<std::int64_t>(pixel_size(dst.type));
    const bool src_pinned = is_pinned(src.data), dst_pinned = is_pinned(dst.data);
    // As many workers as slots and planes, and as the device memory holds (half of what is free,
    // for the filters' own scratch).
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    const std::int64_t plane_bytes = (in_bytes + out_bytes) * rows;
    const int workers = static_cast<int>(std::clamp<std::int64_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(free / 2) / std::max<std::int64_t>(plane_bytes, 1),
                               std::min<std::int64_t>(static_cast<std::int64_t>(c.slots.size()), src.planes)),
        1, static_cast<std::int64_t>(c.slots.size())));

    // Each worker takes the next plane through its slot: staged in (pageable sources), uploaded,
    // filtered, downloaded, staged out (pageable destinations). The workers' planes overlap.
    std::atomic<std::int64_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&](int w) {
        Slot& s = c.slots[static_cast<std::size_t>(w)];
        try {
            check(cudaSetDevice(device), "cudaSetDevice");
            for (std::int64_t z = next++; z < src.planes; z = next++) {
                const DeviceBuffer& d_in = s.d_in.reserve(static_cast<std::size_t>(in_bytes), static_cast<std::size_t>(rows));
                const DeviceBuffer& d_out = s.d_out.reserve(static_cast<std::size_t>(out_bytes), static_cast<std::size_t>(rows));
                const void* from = src.plane(z);
                std::int64_t from_pitch = src.row_stride;
                if (!src_pinned) {
                    void* staged = s.in.reserve(static_cast<std::size_t>(in_bytes * rows));
                    copy_rows(staged, in_bytes, from, from_pitch, in_bytes, rows);
                    from = staged;
                    from_pitch = in_bytes;
                }
                check(cudaMemcpy2DAsync(d_in.get(), static_cast<std::size_t>(d_in.pitch()), from,
                                        static_cast<std::size_t>(from_pitch), static_cast<std::size_t>(in_bytes),
                                        static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, s.stream),
                      "cudaMemcpy2DAsync (upload)");
                filter({d_in.get(), d_in.pitch(), d_out.get(), d_out.pitch(), s.stream, w});
                void* to = dst_pinned ? static_cast<void*>(dst.plane(z))
                                      : s.out.reserve(static_cast<std::size_t>(out_bytes * rows));
                const std::int64_t to_pitch = dst_pinned ? dst.row_stride : out_bytes;
                check(cudaMemcpy2DAsync(to, static_cast<std::size_t>(to_pitch), d_out.get(),
                                        static_cast<std::size_t>(d_out.pitch()), static_cast<std::size_t>(out_bytes),
                                        static_cast<std::size_t>(rows), cudaMemcpyDeviceToHost, s.stream),
                      "cudaMemcpy2DAsync (download)");
                check(cudaStreamSynchronize(s.stream), "plane pipeline on the GPU");
                if (!dst_pinned) copy_rows(dst.plane(z), dst.row_stride, to, out_bytes, out_bytes, rows);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next = src.planes;  // the other workers stop after their plane
        }
    };
    c.pool.run(workers, work);
    if (error) std::rethrow_exception(error);
    lease.succeeded();
}

void release_idle_pipeline_contexts() {
    std::vector<std::unique_ptr<Context>> gone;
    const std::lock_guard<std::mutex> lock(contexts_mutex);
    for (auto& [device, idle] : idle_contexts)
        for (auto& c : idle) gone.push_back(std::move(c));
    idle_contexts.clear();
}

}  // namespace fastmedian::detail
