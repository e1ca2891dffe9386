// The table of GPU policies (gpu_policy.hpp). Limits: the CUDA C++ Programming Guide's
// technical specifications per compute capability (shared memory a block may opt in to is the
// SM's less the 1 KB the driver reserves a block from sm_80 on). Crossovers: measured on the
// H100 alone so far; the other architectures take the H100's until a run on such a card says
// otherwise, and say so.
#include "gpu_policy.hpp"

namespace fastmedian::kernels {

namespace {

constexpr std::size_t kKiB = 1024;

// The H100's crossovers: bench/RESULTS.md, and for each the notebook entry that cuda/
// median_dispatch.cpp cites beside it.
constexpr MedianPolicy kMeasuredOnH100{2048, 2560, 3584, 15};
constexpr const char* kH100Runs = "H100 runs of bench/gpu (docs/notebook/gpu-median-h100-2026-11-2*)";
constexpr const char* kNotMeasured = "not measured on this architecture: the H100's crossovers";

constexpr GpuPolicy kPolicies[] = {
    {"sm_75", 75, "Turing: GeForce RTX 20, Quadro RTX, T4", {64 * kKiB}, kMeasuredOnH100,
     kNotMeasured},
    {"sm_80", 80, "Ampere datacenter: A100, A30", {163 * kKiB}, kMeasuredOnH100, kNotMeasured},
    {"sm_86", 86, "Ampere: GeForce RTX 30, RTX A2000-A6000, A10, A40", {99 * kKiB},
     kMeasuredOnH100, kNotMeasured},
    {"sm_89", 89, "Ada: GeForce RTX 40, RTX 2000-6000 Ada, L4, L40", {99 * kKiB},
     kMeasuredOnH100, kNotMeasured},
    {"sm_90", 90, "Hopper: H100, H200, GH200", {227 * kKiB}, kMeasuredOnH100, kH100Runs},
    {"sm_100", 100, "Blackwell datacenter: B200, GB200", {227 * kKiB}, kMeasuredOnH100,
     kNotMeasured},
    {"sm_120", 120, "Blackwell: GeForce RTX 50, RTX PRO Blackwell", {99 * kKiB},
     kMeasuredOnH100, kNotMeasured},
};

}  // namespace

GpuPolicies gpu_policies() { return {kPolicies, static_cast<int>(sizeof kPolicies / sizeof kPolicies[0])}; }

}  // namespace fastmedian::kernels
