// Which policy a launch follows: the forced one, else the current device's.
#include "gpu_policy.hpp"

#include "shared_memory.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace fastmedian::kernels {

namespace {

// FASTMEDIAN_GPU_POLICY's entry; a name of none is said on stderr once (a test or benchmark
// that meant to force a policy would otherwise measure the device's own unawares).
const GpuPolicy* from_environment() {
    const char* name = std::getenv("FASTMEDIAN_GPU_POLICY");
    if (name == nullptr || *name == '\0') return nullptr;
    const GpuPolicy* p = policy_named(name);
    if (p == nullptr) {
        std::string names;
        const GpuPolicies all = gpu_policies();
        for (int i = 0; i < all.count; ++i) names += std::string(i > 0 ? ", " : "") + all.first[i].name;
        std::fprintf(stderr, "fastmedian: FASTMEDIAN_GPU_POLICY=%s names no GPU policy (%s); each device's own applies\n",
                     name, names.c_str());
    }
    return p;
}

std::atomic<const GpuPolicy*>& forced() {
    static std::atomic<const GpuPolicy*> policy{from_environment()};
    return policy;
}

}  // namespace

const GpuPolicy* policy_for(int major, int minor) {
    const int arch = 10 * major + minor;
    const GpuPolicies all = gpu_policies();
    const GpuPolicy* best = nullptr;
    for (int i = 0; i < all.count && all.first[i].arch <= arch; ++i) best = &all.first[i];
    return best;
}

const GpuPolicy* policy_named(const std::string& name) {
    const std::string arch = name.rfind("sm_", 0) == 0 ? name.substr(3) : name;
    const GpuPolicies all = gpu_policies();
    for (int i = 0; i < all.count; ++i)
        if (std::to_string(all.first[i].arch) == arch) return &all.first[i];
    return nullptr;
}

void force_gpu_policy(const GpuPolicy* policy) { forced().store(policy); }
const GpuPolicy* forced_gpu_policy() { return forced().load(); }

const GpuPolicy& active_policy() {
    if (const GpuPolicy* p = forced_gpu_policy()) return *p;
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess)
        if (const GpuPolicy* p = policy_for(major, minor)) return *p;
    cudaGetLastError();
    return *gpu_policies().first;
}

std::size_t active_shared_per_block() {
    const std::size_t policy = active_policy().limits.shared_per_block;
    int device = 0, optin = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
        cudaGetLastError();
        return policy;
    }
    return std::min(policy, static_cast<std::size_t>(optin));
}

int active_shared_carveout() {
    const GpuPolicy* p = forced_gpu_policy();
    if (p == nullptr) return cudaSharedmemCarveoutDefault;
    int device = 0, most = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) != cudaSuccess || most <= 0) {
        cudaGetLastError();
        return cudaSharedmemCarveoutDefault;
    }
    const std::size_t sm = std::min(p->limits.shared_per_sm, static_cast<std::size_t>(most));
    return static_cast<int>((100 * sm + most - 1) / most);
}

namespace {
thread_local std::string shared_refusal;

// What the dispatchers ask of a kernel, by device: its code, and so its static shared memory,
// differs between architectures (median_tiled has none where its block does not fit).
struct KernelFacts {
    std::size_t static_shared;
    int ptx_version;  // 10 * major + minor of the architecture its code was compiled for
};
std::mutex kernel_facts_mutex;
std::map<std::pair<int, const void*>, KernelFacts> kernel_facts;  // guarded by kernel_facts_mutex

cudaError_t facts_of(const void* kernel, KernelFacts& facts) {
    int device = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess) return e;
    {
        std::lock_guard<std::mutex> lock(kernel_facts_mutex);
        const auto known = kernel_facts.find({device, kernel});
        if (known != kernel_facts.end()) {
            facts = known->second;
            return cudaSuccess;
        }
    }
    cudaFuncAttributes attributes{};
    e = cudaFuncGetAttributes(&attributes, kernel);
    if (e != cudaSuccess) return e;
    facts = {attributes.sharedSizeBytes, attributes.ptxVersion};
    std::lock_guard<std::mutex> lock(kernel_facts_mutex);
    kernel_facts[{device, kernel}] = facts;
    return cudaSuccess;
}
}  // namespace

cudaError_t static_shared_bytes(const void* kernel, std::size_t& bytes) {
    KernelFacts facts{};
    const cudaError_t e = facts_of(kernel, facts);
    bytes = facts.static_shared;
    return e;
}

cudaError_t compiled_shared_per_block(const void* kernel, std::size_t& bytes) {
    KernelFacts facts{};
    const cudaError_t e = facts_of(kernel, facts);
    const GpuPolicy* policy = policy_for(facts.ptx_version / 10, facts.ptx_version % 10);
    bytes = e == cudaSuccess && policy != nullptr ? policy->limits.shared_per_block : 0;
    return e;
}

void note_shared_refusal(std::size_t needs, std::size_t allowed) {
    auto kib = [](std::size_t b) { return std::to_string((b + 1023) / 1024) + " KB"; };
    shared_refusal = "a block needs " + kib(needs) + " of shared memory, " + std::string(active_policy().name) +
                     (forced_gpu_policy() != nullptr ? " (forced)" : "") + " allows " + kib(allowed);
}

std::string take_shared_refusal() {
    std::string reason;
    reason.swap(shared_refusal);
    return reason;
}

}  // namespace fastmedian::kernels
