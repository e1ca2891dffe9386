// The table of GPU policies (gpu_policy.hpp). Limits: the CUDA C++ Programming Guide's
// technical specifications per compute capability (shared memory a block may opt in to is the
// SM's less the 1 KB the driver reserves a block from sm_80 on; the SM's is its largest
// carveout). Crossovers: measured on Hopper (the H100, and the H200) alone so far; the other
// architectures take Hopper's until a run on such a card says otherwise, and say so.
#include "gpu_policy.hpp"

namespace fastmedian::kernels {

namespace {

constexpr std::size_t kKiB = 1024;

// Hopper's crossovers: bench/RESULTS.md, and for each the notebook entry that cuda/
// median_dispatch.cpp cites beside it (H100 runs of bench/gpu/run.sh, 2026-11-24 to 27; the
// dense ranks' steps, H200 runs of 2026-11-30: at each step, noise of that many values runs
// faster on the dense ranks than on the tile ranks, docs/notebook/tile-ranks-h200-2026-11-30.md).
// No other architecture's were measured: each takes Hopper's until a run on such a card says
// otherwise.
constexpr MedianPolicy kMeasuredOnHopper{2048, 2560, 3584, 15, {{48, 2048}, {65, 8192}, {97, 32768}, {157, 65536}}};

// Chosen, not measured on any GPU: a block's sorted windows in the separable median's passes
// take at most 100 KB (blocks of 128 threads to u16 k = 399, f32 k = 199; fewer threads past
// that), and the temporal median's the 48 KB every GPU gives a block without asking.
constexpr SlidingPolicy kSlidingChosen{100 * kKiB, 48 * kKiB};

// Each entry: its GPUs, then Hopper's crossovers (measured there for sm_90 alone) and the
// sliding medians' chosen shares.
constexpr GpuPolicy kPolicies[] = {
    {"sm_75", 75, {64 * kKiB, 64 * kKiB}, kMeasuredOnHopper, kSlidingChosen},  // Turing: GeForce RTX 20, Quadro RTX, T4
    {"sm_80", 80, {163 * kKiB, 164 * kKiB}, kMeasuredOnHopper, kSlidingChosen}, // Ampere datacenter: A100, A30
    {"sm_86", 86, {99 * kKiB, 100 * kKiB}, kMeasuredOnHopper, kSlidingChosen},  // Ampere: GeForce RTX 30, RTX A2000-A6000, A10, A40
    {"sm_89", 89, {99 * kKiB, 100 * kKiB}, kMeasuredOnHopper, kSlidingChosen},  // Ada: GeForce RTX 40, RTX 2000-6000 Ada, L4, L40
    {"sm_90", 90, {227 * kKiB, 228 * kKiB}, kMeasuredOnHopper, kSlidingChosen}, // Hopper: H100, H200, GH200 (measured there)
    {"sm_100", 100, {227 * kKiB, 228 * kKiB}, kMeasuredOnHopper, kSlidingChosen}, // Blackwell datacenter: B200, GB200
    {"sm_120", 120, {99 * kKiB, 100 * kKiB}, kMeasuredOnHopper, kSlidingChosen},  // Blackwell: GeForce RTX 50, RTX PRO Blackwell
};

}  // namespace

GpuPolicies gpu_policies() { return {kPolicies, static_cast<int>(sizeof kPolicies / sizeof kPolicies[0])}; }

}  // namespace fastmedian::kernels
