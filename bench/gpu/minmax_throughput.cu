// Min/max throughput on the GPU, the ceiling of every network kernel here: a 16-key bitonic-style
// exchange network run over and over in registers, with each flavour of min/max the kernels
// could use (packed u16x2 as u8/u16 keys, packed f16x2, 32-bit integer keys as f32 keys,
// float), alone and with two flavours interleaved (if they ran on different pipes, the mix
// would be faster than either alone); and the three-input min/max (VIMNMX3, which ptxas makes of
// min(min(a, b), c)), to know whether a fused pair costs one instruction's time or two.
//   fastmedian_bench_minmax
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

struct PackedU16 {
    static constexpr const char* kName = "vimnmx.u16x2";
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return __vminu2(a, b); }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return __vmaxu2(a, b); }
};
struct PackedF16 {
    static constexpr const char* kName = "hmnmx2 (f16x2)";
    __device__ static std::uint32_t apply(std::uint32_t a, std::uint32_t b, bool max) {
        __half2 x, y;
        memcpy(&x, &a, 4);
        memcpy(&y, &b, 4);
        const __half2 r = max ? __hmax2(x, y) : __hmin2(x, y);
        std::uint32_t out;
        memcpy(&out, &r, 4);
        return out;
    }
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return apply(a, b, false); }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return apply(a, b, true); }
};
struct Int32 {
    static constexpr const char* kName = "imnmx.u32";
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return min(a, b); }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return max(a, b); }
};
struct PackedU16Three {
    static constexpr const char* kName = "vimnmx3.u16x2 (3 inputs)";
    __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return __vimin3_u16x2(a, b, c);
    }
    __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return __vimax3_u16x2(a, b, c);
    }
};
struct Int32Three {
    static constexpr const char* kName = "vimnmx3.u32 (3 inputs)";
    __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return min(min(a, b), c);
    }
    __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        return max(max(a, b), c);
    }
};
struct Float32 {
    static constexpr const char* kName = "fmnmx.f32";
    __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) {
        return __float_as_uint(fminf(__uint_as_float(a), __uint_as_float(b)));
    }
    __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) {
        return __float_as_uint(fmaxf(__uint_as_float(a), __uint_as_float(b)));
    }
};

constexpr int kKeys = 16;
constexpr int kExchangesPerRound = 4 * kKeys / 2;  // 4 stages of 8 compare-exchanges

// Exchanges alternate between flavours A and B by key pair; A == B runs one flavour.
template <class A, class B>
__global__ void network(const std::uint32_t* in, std::uint32_t* out, int rounds) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    std::uint32_t v[kKeys];
#pragma unroll
    for (int j = 0; j < kKeys; ++j) v[j] = in[(i * kKeys + j) & 0xFFFF];
#pragma unroll 4  // four rotations by one bring the keys back to their registers
    for (int round = 0; round < rounds; ++round) {
#pragma unroll
        for (int s = 1; s < kKeys; s *= 2) {
#pragma unroll
            for (int j = 0; j < kKeys; ++j) {
                const int p = j ^ s;
                if (p <= j) continue;
                const std::uint32_t a = v[j], b = v[p];
                if ((j >> 1) % 2 == 0) {
                    v[j] = A::lo(a, b);
                    v[p] = A::hi(a, b);
                } else {
                    v[j] = B::lo(a, b);
                    v[p] = B::hi(a, b);
                }
            }
        }
        const std::uint32_t first = v[0];  // rotate, so that the network never settles
#pragma unroll
        for (int j = 0; j + 1 < kKeys; ++j) v[j] = v[j + 1];
        v[kKeys - 1] = first;
    }
    std::uint32_t sum = 0;
#pragma unroll
    for (int j = 0; j < kKeys; ++j) sum ^= v[j] * (j + 1);
    out[i] = sum;
}

// Each key becomes the min (even keys) or max (odd) of itself and the next two, by one
// three-input instruction; 16 a stage, 4 stages a round.
template <class F>
__global__ void three_way(const std::uint32_t* in, std::uint32_t* out, int rounds) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    std::uint32_t v[kKeys];
#pragma unroll
    for (int j = 0; j < kKeys; ++j) v[j] = in[(i * kKeys + j) & 0xFFFF];
#pragma unroll 1
    for (int round = 0; round < rounds; ++round) {
#pragma unroll
        for (int s = 1; s <= 4; ++s) {
            std::uint32_t w[kKeys];
#pragma unroll
            for (int j = 0; j < kKeys; ++j) {
                const std::uint32_t a = v[j], b = v[(j + s) % kKeys], c = v[(j + 2 * s + 1) % kKeys];
                w[j] = j % 2 == 0 ? F::lo3(a, b, c) : F::hi3(a, b, c);
            }
#pragma unroll
            for (int j = 0; j < kKeys; ++j) v[j] = w[(j + 1) % kKeys];
        }
    }
    std::uint32_t sum = 0;
#pragma unroll
    for (int j = 0; j < kKeys; ++j) sum ^= v[j] * (j + 1);
    out[i] = sum;
}

template <class K>
float best_of_7(K launch) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    launch();  // warm-up
    float best = 1e30f;
    for (int run = 0; run < 7; ++run) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        if (ms < best) best = ms;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return best;
}

template <class F>
void measure_three(const std::uint32_t* in, std::uint32_t* out, int sms, double clock_khz) {
    const int blocks = sms * 16, threads = 256, rounds = 256;
    const float best = best_of_7([&] { three_way<F><<<blocks, threads>>>(in, out, rounds); });
    const double instructions = 4.0 * kKeys * rounds * blocks * threads;
    std::printf("%-30s %8.3f ms %7.2f Tinstr/s %6.1f per SM per clock (each 2 min/max)\n", F::kName,
                best, instructions / best / 1e9, instructions / best / sms / clock_khz);
}

template <class A, class B>
void measure(const std::uint32_t* in, std::uint32_t* out, int sms, double clock_khz) {
    const int blocks = sms * 16, threads = 256, rounds = 256;
    const float best = best_of_7([&] { network<A, B><<<blocks, threads>>>(in, out, rounds); });
    const double ops = 2.0 * kExchangesPerRound * rounds * blocks * threads;  // min + max
    char name[64];
    std::snprintf(name, sizeof name, "%s%s%s", A::kName, A::kName == B::kName ? "" : " + ",
                  A::kName == B::kName ? "" : B::kName);
    std::printf("%-30s %8.3f ms %7.2f Tops/s %6.1f per SM per clock\n", name, best, ops / best / 1e9,
                ops / best / sms / clock_khz);
}

}  // namespace

int main() {
    int device = 0, sms = 0, clock_khz = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        std::fprintf(stderr, "fastmedian_bench_minmax: no CUDA device\n");
        return 1;
    }
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
    std::printf("device: %s, %d SMs, %.2f GHz (rated clock)\n", prop.name, sms, clock_khz / 1e6);
    std::uint32_t* in = nullptr;
    std::uint32_t* out = nullptr;
    cudaMalloc(&in, 65536 * sizeof(std::uint32_t));
    cudaMalloc(&out, std::size_t{16} * sms * 256 * sizeof(std::uint32_t));
    static std::uint32_t keys[65536];
    for (std::uint32_t i = 0; i < 65536; ++i) keys[i] = (i * 2654435761u) & 0x00FF00FFu;  // u8 pairs
    cudaMemcpy(in, keys, sizeof keys, cudaMemcpyHostToDevice);
    measure<PackedU16, PackedU16>(in, out, sms, clock_khz);
    measure<PackedF16, PackedF16>(in, out, sms, clock_khz);
    measure<PackedU16, PackedF16>(in, out, sms, clock_khz);
    measure<Int32, Int32>(in, out, sms, clock_khz);
    measure<Float32, Float32>(in, out, sms, clock_khz);
    measure<Int32, Float32>(in, out, sms, clock_khz);
    measure_three<PackedU16Three>(in, out, sms, clock_khz);
    measure_three<Int32Three>(in, out, sms, clock_khz);
    const cudaError_t err = cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    if (err != cudaSuccess) {
        std::fprintf(stderr, "fastmedian_bench_minmax: %s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
