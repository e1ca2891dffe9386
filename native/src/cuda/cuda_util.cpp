#include "cuda/cuda_util.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "fastmedian/errors.hpp"
#include "shared_memory.cuh"

namespace fastmedian::detail {

namespace {

std::mutex fault_mutex;
Fault armed_fault = Fault::none;  // guarded by fault_mutex, as is fault_skip
int fault_skip = 0;
std::atomic<bool> fault_armed{false};  // lets every call outside tests skip the lock

// Whether the call of kind `site` is to fail, disarming the fault that says so.
bool take_fault(Fault site) {
    if (!fault_armed.load(std::memory_order_acquire)) return false;
    std::lock_guard<std::mutex> lock(fault_mutex);
    if (armed_fault != site || fault_skip-- > 0) return false;
    armed_fault = Fault::none;
    fault_armed.store(false, std::memory_order_release);
    return true;
}

// Runs f with `device` current (memory is freed on the device that holds it, whichever is
// current: the plane pipeline's buffers of several devices), then makes the current one
// current again.
template <class F>
void on_device(int device, F&& f) {
    int current = device;
    cudaGetDevice(&current);
    if (current != device) cudaSetDevice(device);
    f();
    if (current != device) cudaSetDevice(current);
}

// Stream-ordered scratch comes from a memory pool of the library's own on each device, which
// keeps what calls gave back, up to kPoolKeepBytes, for the next: the device's default pool
// (the application's, not ours to tune) hands its memory back to the system at every
// synchronisation, and mapping it afresh cost the separable smoother as much time as its
// kernels (docs/notebook/separable-h100-2026-11-23.md).
constexpr std::uint64_t kPoolKeepBytes = std::uint64_t{1} << 30;

cudaMemPool_t scratch_pool(int device) {
    static std::mutex mutex;
    static std::map<int, cudaMemPool_t> pools;  // for the process's life, like the driver's own
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = pools.find(device);
    if (found != pools.end()) return found->second;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    check(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate (scratch)");
    std::uint64_t keep = kPoolKeepBytes;
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute (scratch)");
    pools.emplace(device, pool);
    return pool;
}

}  // namespace

void inject_fault(Fault fault, int skip) {
    std::lock_guard<std::mutex> lock(fault_mutex);
    armed_fault = fault;
    fault_skip = skip;
    fault_armed.store(fault != Fault::none, std::memory_order_release);
}

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    // A launch the GPU's policy refused says why in its own words (kernels/shared_memory.cuh).
    const std::string refusal = kernels::take_shared_refusal();
    throw Error(ErrorCode::device_error,
                std::string("CUDA ") + what + " failed: " +
                    (refusal.empty() ? std::string(cudaGetErrorString(e)) : refusal));
}

std::size_t memory_budget(double fraction) {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    std::size_t budget = static_cast<std::size_t>(static_cast<double>(free) * fraction);
    if (const char* env = std::getenv("FASTMEDIAN_CUDA_MEMORY_LIMIT")) {
        char* end = nullptr;
        const unsigned long long limit = std::strtoull(env, &end, 10);
        if (end == env || *end != '\0')
            throw Error(ErrorCode::invalid_argument,
                        std::string("FASTMEDIAN_CUDA_MEMORY_LIMIT must be a number of bytes, got '") + env + "'");
        budget = std::min<std::size_t>(budget, limit);
    }
    return budget;
}

void check_device_pointer(const void* p, int device, const char* name) {
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, p);
    cudaGetLastError();
    const bool ok = e == cudaSuccess &&
                    ((attr.type == cudaMemoryTypeDevice && attr.device == device) ||
                     attr.type == cudaMemoryTypeManaged);
    if (!ok)
        throw Error(ErrorCode::invalid_argument,
                    std::string(name) + " is not memory of CUDA device " + std::to_string(device) +
                        " (views in Memory::cuda need cudaMalloc'd or managed memory)");
}

void check_launch(cudaError_t e, const char* what) {
    check(e == cudaSuccess && take_fault(Fault::kernel_launch) ? cudaErrorLaunchOutOfResources : e,
          what);
}

DeviceBuffer::DeviceBuffer(std::size_t width_bytes, std::size_t height) {
    check(cudaGetDevice(&device_), "cudaGetDevice");
    check(take_fault(Fault::device_allocation) ? cudaErrorMemoryAllocation
                                               : cudaMallocPitch(&ptr_, &pitch_, width_bytes, height),
          "cudaMallocPitch");
}

DeviceBuffer::~DeviceBuffer() {
    on_device(device_, [&] { cudaFree(ptr_); });
}

void* ScratchMemory::get(std::size_t bytes, cudaStream_t stream) {
    if (ptr_ != nullptr && bytes <= bytes_ && stream == stream_) return ptr_;
    release();
    check(cudaGetDevice(&device_), "cudaGetDevice");
    const cudaError_t e = take_fault(Fault::device_allocation) ? cudaErrorMemoryAllocation
                          : stream_ordered_ ? cudaMallocFromPoolAsync(&ptr_, bytes, scratch_pool(device_), stream)
                                            : cudaMalloc(&ptr_, bytes);
    if (e != cudaSuccess) ptr_ = nullptr;
    check(e, stream_ordered_ ? "cudaMallocFromPoolAsync (scratch)" : "cudaMalloc (scratch)");
    bytes_ = bytes;
    stream_ = stream;
    return ptr_;
}

void ScratchMemory::release() {
    if (ptr_ == nullptr) return;
    on_device(device_, [&] { stream_ordered_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_); });
    ptr_ = nullptr;
    bytes_ = 0;
}

}  // namespace fastmedian::detail
