// The table of GPU policies (gpu_policy.hpp). Limits: the CUDA C++ Programming Guide's
// technical specifications per compute capability (shared memory a block may opt in to is the
// SM's less the 1 KB the driver reserves a block from sm_80 on; the SM's is its largest
// carveout). Crossovers: measured on the
// H100 alone so far; the other architectures take the H100's until a run on such a card says
// otherwise, and say so.
#include "gpu_policy.hpp"

namespace fastmedian::kernels {

namespace {

constexpr std::size_t kKiB = 1024;

// The H100's crossovers: bench/RESULTS.md, and for each the notebook entry that cuda/
// median_dispatch.cpp cites beside it (H100 runs of bench/gpu/run.sh, 2026-11-24 to 27). No
// other architecture's were measured: each takes the H100's until a run on such a card says
// otherwise.
constexpr MedianPolicy kMeasuredOnH100{2048, 2560, 3584, 15};

// Chosen, not measured on any GPU: a block's sorted windows in the separable median's passes
// take at most 100 KB (blocks of 128 threads to u16 k = 399, f32 k = 199; fewer threads past
// that), and the temporal median's the 48 KB every GPU gives a block without asking.
constexpr SlidingPolicy kSlidingChosen{100 * kKiB, 48 * kKiB};

// Each entry: its GPUs, then the H100's crossovers (measured there for sm_90 alone) and the
// sliding medians' chosen shares.
constexpr GpuPolicy kPolicies[] = {
    {"sm_75", 75, {64 * kKiB, 64 * kKiB}, kMeasuredOnH100, kSlidingChosen},    // Turing: GeForce RTX 20, Quadro RTX, T4
    {"sm_80", 80, {163 * kKiB, 164 * kKiB}, kMeasuredOnH100, kSlidingChosen},   // Ampere datacenter: A100, A30
    {"sm_86", 86, {99 * kKiB, 100 * kKiB}, kMeasuredOnH100, kSlidingChosen},    // Ampere: GeForce RTX 30, RTX A2000-A6000, A10, A40
    {"sm_89", 89, {99 * kKiB, 100 * kKiB}, kMeasuredOnH100, kSlidingChosen},    // Ada: GeForce RTX 40, RTX 2000-6000 Ada, L4, L40
    {"sm_90", 90, {227 * kKiB, 228 * kKiB}, kMeasuredOnH100, kSlidingChosen},   // Hopper: H100, H200, GH200 (measured on the H100)
    {"sm_100", 100, {227 * kKiB, 228 * kKiB}, kMeasuredOnH100, kSlidingChosen}, // Blackwell datacenter: B200, GB200
    {"sm_120", 120, {99 * kKiB, 100 * kKiB}, kMeasuredOnH100, kSlidingChosen},  // Blackwell: GeForce RTX 50, RTX PRO Blackwell
};

}  // namespace

GpuPolicies gpu_policies() { return {kPolicies, static_cast<int>(sizeof kPolicies / sizeof kPolicies[0])}; }

}  // namespace fastmedian::kernels
