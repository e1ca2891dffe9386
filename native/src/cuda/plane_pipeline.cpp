#include "cuda/plane_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/cuda_util.hpp"
#include "support/stream_copy.hpp"
#include "cuda/worker_pool.hpp"
#include "semantics/border_index.hpp"
#include "support/cancel.hpp"
#include "fastmedian/errors.hpp"

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
        // Waited on with the thread asleep, not spinning: a worker per core, on several devices,
        // would otherwise keep every core busy waiting while the GPUs work.
        check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming | cudaEventBlockingSync),
              "cudaEventCreate");
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

// A band of a plane: outputs [y0, y1) from the device rows [top, top + rows) of the plane
// extended by the border mode (a whole plane: top 0, rows its height).
struct Band {
    std::int64_t y0, y1, top, rows;
};

// How the planes are cut, and how many workers each device runs.
struct Cut {
    std::int64_t band_rows;  // outputs per band
    std::int64_t bands;      // per plane
    int workers;             // per device
};

std::int64_t padded(std::int64_t bytes) { return (bytes + 511) / 512 * 512; }

// Bands of every plane are at least this many halos tall (when the memory allows), so that the
// rows read twice (the 3D median's) add little to the uploads and kernels.
constexpr std::int64_t kMinBandHalos = 8;

// Whole planes while the device memory holds one per worker (half of what is free, for the
// filters' own needs); else bands, for a few workers each, as tall as the memory allows. Items
// of every plane are bands from the start, about four per worker, so that workers overlap.
// `row_bytes`: what a row of an item takes on the device.
Cut cut_planes(std::int64_t height, std::int64_t planes, std::int64_t row_bytes,
               const PlaneReach& reach, std::int64_t budget, int slots) {
    if (!reach.every_plane && row_bytes * height <= budget) {
        const std::int64_t workers = std::min<std::int64_t>({budget / (row_bytes * height), slots, planes});
        return {height, 1, static_cast<int>(std::max<std::int64_t>(workers, 1))};
    }
    const std::int64_t halo = 2 * static_cast<std::int64_t>(reach.halo_rows);
    std::int64_t workers = reach.every_plane ? slots : std::min(4, slots);
    std::int64_t rows = budget / workers / row_bytes - halo;
    if (rows < 1) {
        workers = 1;
        rows = std::max<std::int64_t>(budget / row_bytes - halo, 1);
    }
    if (reach.every_plane)
        rows = std::min(rows, std::max<std::int64_t>({height / (4 * workers), kMinBandHalos * halo, 1}));
    rows = std::min(rows, height);
    const std::int64_t bands = (height + rows - 1) / rows;
    const std::int64_t items = (reach.every_plane ? 1 : planes) * bands;
    return {rows, bands, static_cast<int>(std::min(workers, items))};
}

Band band_of(const Cut& cut, std::int64_t b, std::int64_t height, const PlaneReach& reach) {
    if (cut.bands == 1) return {0, height, 0, height};
    const std::int64_t y0 = b * cut.band_rows, y1 = std::min(height, y0 + cut.band_rows);
    const HaloRange reads = halo_range(y0, y1, reach.halo_rows, height, reach.border);
    return {y0, y1, reads.top, reads.bottom - reads.top};
}

// One side of a copy of a box of rows: rows `pitch` bytes apart, planes `plane_rows` rows
// apart, the box starting at row y of plane z.
struct Side {
    const void* data;
    std::int64_t pitch, plane_rows, y, z;
};

// `rows` rows of `planes` planes, in one call.
cudaError_t copy_box(const Side& from, const Side& to, std::int64_t row_bytes, std::int64_t rows,
                     std::int64_t planes, cudaMemcpyKind kind, cudaStream_t stream) {
    const auto n = [](std::int64_t v) { return static_cast<std::size_t>(v); };
    cudaMemcpy3DParms p{};
    p.srcPtr = cudaPitchedPtr{const_cast<void*>(from.data), n(from.pitch), n(row_bytes), n(from.plane_rows)};
    p.srcPos = cudaPos{0, n(from.y), n(from.z)};
    p.dstPtr = cudaPitchedPtr{const_cast<void*>(to.data), n(to.pitch), n(row_bytes), n(to.plane_rows)};
    p.dstPos = cudaPos{0, n(to.y), n(to.z)};
    p.extent = cudaExtent{n(row_bytes), n(rows), n(planes)};
    p.kind = kind;
    return cudaMemcpy3DAsync(&p, stream);
}

// Calls copy(device_row, image_row, count) for the runs of consecutive image rows that the
// band's device rows read.
template <class Copy>
void for_each_run(const Band& band, std::int64_t height, Border border, Copy copy) {
    auto source = [&](std::int64_t i) {
        return kernels::border_index(band.top + i, height, static_cast<int>(border));
    };
    for (std::int64_t i = 0; i < band.rows;) {
        const std::int64_t from = source(i);
        std::int64_t n = 1;
        while (i + n < band.rows && source(i + n) == from + n) ++n;
        copy(i, from, n);
        i += n;
    }
}

}  // namespace

void filter_host_planes(const ConstImageView& src, const ImageView& dst,
                        const std::vector<int>& devices, const PlaneReach& reach,
                        const PlaneFilter& filter) {
    std::vector<std::unique_ptr<Lease>> leases;
    std::int64_t budget = std::numeric_limits<std::int64_t>::max();
    for (const int device : devices) {
        check(cudaSetDevice(device), "cudaSetDevice");
        leases.push_back(std::make_unique<Lease>(device));
        budget = std::min(budget, static_cast<std::int64_t>(memory_budget(0.5)));
    }
    check(cudaSetDevice(devices.front()), "cudaSetDevice");
    const std::int64_t height = src.height;
    const std::int64_t in_bytes = src.width * static_cast<std::int64_t>(pixel_size(src.type));
    const std::int64_t out_bytes = dst.width * static_cast<std::int64_t>(pixel_size(dst.type));
    const bool src_pinned = is_pinned(src.data), dst_pinned = is_pinned(dst.data);
    const int slots = static_cast<int>((**leases.front()).slots.size());
    // An item: a band (or the whole) of one plane, or of every plane at once.
    const std::int64_t item_planes = reach.every_plane ? src.planes : 1;
    const Cut cut = cut_planes(height, src.planes,
                               (padded(in_bytes) + padded(out_bytes) + reach.scratch_row_bytes) * item_planes,
                               reach, budget, slots);
    const std::int64_t items = src.planes / item_planes * cut.bands;

    // Each worker takes the next band (or plane) through its slot: staged in (pageable sources),
    // uploaded, filtered, downloaded, staged out (pageable destinations). The workers' bands
    // overlap.
    // The workers run on the pools' threads, outside the caller's CancelScope: each takes the
    // caller's flag and checks it before each item.
    std::atomic<std::int64_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    const std::atomic<bool>* const cancel = cancel_flag();
    auto work = [&](int d, int w) {
        Slot& s = (**leases[static_cast<std::size_t>(d)]).slots[static_cast<std::size_t>(w)];
        const UseCancelFlag use(cancel);
        try {
            check(cudaSetDevice(devices[static_cast<std::size_t>(d)]), "cudaSetDevice");
            for (std::int64_t item = next++; item < items; item = next++) {
                throw_if_cancelled();
                const std::int64_t z0 = item / cut.bands * item_planes;
                const Band band = band_of(cut, item % cut.bands, height, reach);
                // On the device, plane after plane of the item, `band.rows` rows each.
                const std::int64_t rows = band.rows * item_planes;
                const DeviceBuffer& d_in = s.d_in.reserve(static_cast<std::size_t>(in_bytes), static_cast<std::size_t>(rows));
                const DeviceBuffer& d_out = s.d_out.reserve(static_cast<std::size_t>(out_bytes), static_cast<std::size_t>(rows));
                auto* staged = src_pinned ? nullptr : static_cast<unsigned char*>(s.in.reserve(static_cast<std::size_t>(in_bytes * rows)));
                const bool whole_rows = band.top >= 0 && band.top + band.rows <= height;  // no border rows
                if (src_pinned && item_planes > 1 && whole_rows && src.plane_stride % src.row_stride == 0) {
                    check(copy_box({src.data, src.row_stride, src.plane_stride / src.row_stride, band.top, z0},
                                   {d_in.get(), d_in.pitch(), band.rows, 0, 0}, in_bytes, band.rows, item_planes,
                                   cudaMemcpyHostToDevice, s.stream),
                          "cudaMemcpy3DAsync (upload)");
                } else {
                    for (std::int64_t p = 0; p < item_planes; ++p) {
                        const auto* plane = src.plane(z0 + p);
                        for_each_run(band, height, reach.border, [&](std::int64_t i, std::int64_t y, std::int64_t n) {
                            const std::int64_t at = p * band.rows + i;  // the device row
                            if (src_pinned)
                                check(cudaMemcpy2DAsync(static_cast<char*>(d_in.get()) + at * d_in.pitch(),
                                                        static_cast<std::size_t>(d_in.pitch()), plane + y * src.row_stride,
                                                        static_cast<std::size_t>(src.row_stride), static_cast<std::size_t>(in_bytes),
                                                        static_cast<std::size_t>(n), cudaMemcpyHostToDevice, s.stream),
                                      "cudaMemcpy2DAsync (upload)");
                            else
                                copy_rows(staged + at * in_bytes, in_bytes, plane + y * src.row_stride, src.row_stride,
                                          in_bytes, n);
                        });
                    }
                    if (!src_pinned)
                        check(cudaMemcpy2DAsync(d_in.get(), static_cast<std::size_t>(d_in.pitch()), staged,
                                                static_cast<std::size_t>(in_bytes), static_cast<std::size_t>(in_bytes),
                                                static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, s.stream),
                              "cudaMemcpy2DAsync (upload)");
                }
                filter({d_in.get(), d_in.pitch(), d_out.get(), d_out.pitch(), band.rows, item_planes, s.stream,
                        d * kMaxPipelineSlots + w});
                // The kept rows of each plane: to the destination (pinned), or to staging; every
                // plane's at once where the destination's planes are a whole number of rows apart.
                const std::int64_t kept = band.y1 - band.y0;
                auto* unstaged = dst_pinned ? nullptr : static_cast<unsigned char*>(s.out.reserve(static_cast<std::size_t>(out_bytes * kept * item_planes)));
                const Side kept_rows{d_out.get(), d_out.pitch(), band.rows, band.y0 - band.top, 0};
                if (!dst_pinned || item_planes == 1 || dst.plane_stride % dst.row_stride == 0) {
                    // A single plane's stride may be anything (0 included): only its rows count.
                    const std::int64_t dst_plane_rows = item_planes == 1 ? height : dst.plane_stride / dst.row_stride;
                    const Side to = dst_pinned ? Side{dst.plane(z0), dst.row_stride, dst_plane_rows, band.y0, 0}
                                               : Side{unstaged, out_bytes, kept, 0, 0};
                    check(copy_box(kept_rows, to, out_bytes, kept, item_planes, cudaMemcpyDeviceToHost, s.stream),
                          "cudaMemcpy3DAsync (download)");
                } else {
                    const auto* from = static_cast<const unsigned char*>(d_out.get()) + (band.y0 - band.top) * d_out.pitch();
                    for (std::int64_t p = 0; p < item_planes; ++p)
                        check(cudaMemcpy2DAsync(dst.plane(z0 + p) + band.y0 * dst.row_stride, static_cast<std::size_t>(dst.row_stride),
                                                from + p * band.rows * d_out.pitch(), static_cast<std::size_t>(d_out.pitch()),
                                                static_cast<std::size_t>(out_bytes), static_cast<std::size_t>(kept),
                                                cudaMemcpyDeviceToHost, s.stream),
                              "cudaMemcpy2DAsync (download)");
                }
                check(cudaEventRecord(s.done, s.stream), "cudaEventRecord");
                check(cudaEventSynchronize(s.done), "plane pipeline on the GPU");
                if (!dst_pinned)
                    for (std::int64_t p = 0; p < item_planes; ++p)
                        copy_rows(dst.plane(z0 + p) + band.y0 * dst.row_stride, dst.row_stride,
                                  unstaged + p * kept * out_bytes, out_bytes, out_bytes, kept);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(error_mutex);
            if (!error) error = std::current_exception();
            next = items;  // the other workers stop after their band
        }
    };
    // The first device's workers run on this thread's pool; every other device's on a thread
    // of its own that runs that device's pool.
    const int workers = cut.workers;
    std::vector<std::thread> others;
    try {
        for (std::size_t d = 1; d < devices.size(); ++d)
            others.emplace_back([&, d] {
                (**leases[d]).pool.run(workers, [&, d](int w) { work(static_cast<int>(d), w); });
            });
    } catch (...) {  // no thread: stop the ones started, then report
        next = items;
        for (std::thread& t : others) t.join();
        throw Error(ErrorCode::device_error, "cannot start a thread for a second CUDA device");
    }
    (**leases.front()).pool.run(workers, [&](int w) { work(0, w); });
    for (std::thread& t : others) t.join();
    if (error) std::rethrow_exception(error);
    for (auto& lease : leases) lease->succeeded();
}

void release_idle_pipeline_contexts() {
    std::vector<std::unique_ptr<Context>> gone;
    const std::lock_guard<std::mutex> lock(contexts_mutex);
    for (auto& [device, idle] : idle_contexts)
        for (auto& c : idle) gone.push_back(std::move(c));
    idle_contexts.clear();
}

}  // namespace fastmedian::detail
