// The choices of the CUDA kernels that depend on the GPU, one policy per architecture, kept
// apart from the kernels (as CUB keeps its tuning structs apart from its agents): what a block
// may have (shared memory above all, which decides which kernels a card can run at all), and
// the crossovers between kernel families that were measured. The table is gpu_policies.cpp;
// the dispatchers and launches read the active policy, never the device, so that a test can
// force another architecture's policy on the GPU at hand (force_gpu_policy).
#pragma once

#include <cstddef>
#include <string>

namespace fastmedian::kernels {

// What an architecture's blocks may use (the CUDA C++ Programming Guide's technical
// specifications per compute capability): the shared memory decides which kernels a card can
// run at all.
struct GpuLimits {
    std::size_t shared_per_block;  // static + dynamic shared memory of one block, opted in
    std::size_t shared_per_sm;     // of all the blocks an SM holds: how many of a kernel's fit
};

// Windows this wide and wider keep the dense ranks (median_ranks.cuh) on planes of at most
// `most_values` distinct values, where the tile ranks could take them.
struct DenseRanksStep {
    int min_width;
    unsigned most_values;
};

// The 2D median's crossovers between kernel families (cuda/median_dispatch.cpp). Windows too
// large for the limits fall through to the next family without an entry here: each family
// states what its blocks need, and the dispatcher compares.
struct MedianPolicy {
    int stream5_min_width;          // 5x5 squares stream down strips on rows this wide and wider
    int stream7_min_width;          // 7x7, u8 and u16
    int stream7_min_width_f32;      // 7x7, f32 (fractions lose below it)
    int tiled_max_square_u8;        // larger u8 squares: the sliding histograms
    DenseRanksStep dense_ranks[4];  // narrowest first; narrower windows take the tile ranks on any plane
};

// The sliding medians' blocks, which keep a sorted window a thread in shared memory: past
// these bytes a block runs fewer threads (each family also checks what the GPU allows).
struct SlidingPolicy {
    std::size_t separable_windows;  // a block's windows in the separable median's passes (median_1d.cu)
    std::size_t temporal_windows;   // a block's windows in the temporal median (cuda/temporal_cuda.cpp)
};

// An architecture's policy; gpu_policies.cpp says for each entry which GPUs it serves and
// which benchmark run its crossovers come from.
struct GpuPolicy {
    const char* name;  // "sm_86"
    int arch;          // 10 * major + minor of the oldest GPU it serves
    GpuLimits limits;
    MedianPolicy median;
    SlidingPolicy sliding;
};

// The table, oldest architecture first.
struct GpuPolicies {
    const GpuPolicy* first;
    int count;
};
GpuPolicies gpu_policies();

// The policy of a GPU of compute capability major.minor: the newest entry at or below it (sm_87
// takes sm_86's, sm_103 sm_100's, a future sm_130 sm_120's: their limits are never taken above
// the device's own, active_shared_per_block); nullptr below 7.5, older than any GPU this
// library's kernels are built for.
const GpuPolicy* policy_for(int major, int minor);

// The entry named `name` ("sm_86" or "86"); nullptr if none.
const GpuPolicy* policy_named(const std::string& name);

// Internal switch for tests: every later launch, on any device, follows `policy` as though
// the GPU were of its architecture (never above the device's own limits); nullptr restores the
// devices' own. FASTMEDIAN_GPU_POLICY=sm_86 in the environment forces it from the start.
void force_gpu_policy(const GpuPolicy* policy);
const GpuPolicy* forced_gpu_policy();

// The policy launches on the current device follow: the forced one, else the device's own
// (the oldest entry for a device too old for any, which the backend refuses before).
const GpuPolicy& active_policy();

// Shared memory one block may use on the current device under the active policy: the policy's
// limit, or the device's own where that is lower.
std::size_t active_shared_per_block();

// The shared memory carveout (cudaFuncAttributePreferredSharedMemoryCarveout, percent of the
// device's most an SM) that launches under a forced policy ask for, so that an SM holds no
// more blocks than one of that architecture would: its shared memory an SM, rounded up to a
// percent (the GPU takes the smallest carveout it has at or above it). Under the device's own
// policy, cudaSharedmemCarveoutDefault (the driver's choice).
int active_shared_carveout();

}  // namespace fastmedian::kernels
