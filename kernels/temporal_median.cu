#include "temporal_median.cuh"

#include "median_lanes.cuh"
#include "networks/generated/temporal_networks.hpp"
#include "semantics/order_key.hpp"
#include "semantics/temporal_window.hpp"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kNetworkThreads = 128;
constexpr int kMaxGridY = 65535;

// Pixel (x, y)'s column through the frames.
template <class T>
struct Column {
    const char* src;
    std::int64_t stride;
    __device__ Column(const TemporalArgs& a, int x, int y)
        : src(static_cast<const char*>(a.src) + y * a.src_pitch + x * sizeof(T)),
          stride(a.src_frame_stride) {}
    __device__ std::uint32_t key(std::int64_t f) const {
        return OrderKey<T>::to_key(*reinterpret_cast<const T*>(src + f * stride));
    }
};

template <class T>
__device__ void store(const TemporalArgs& a, int x, int y, std::int64_t t, std::uint32_t frame_key,
                      std::uint32_t median_key) {
    T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + t * a.dst_frame_stride +
                                  y * a.dst_pitch) + x;
    *out = median_output<T>(OrderKey<T>::from_key(frame_key), median_key, a.offset);
}

template <class T, int N>
__global__ void __launch_bounds__(kNetworkThreads) temporal_network(const __grid_constant__ TemporalArgs a) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const Column<T> col(a, x, y);
        std::uint32_t w[N];
#pragma unroll
        for (int i = 0; i < N; ++i) w[i] = col.key(i);
        std::int64_t start = 0;
        for (std::int64_t t = 0; t < a.frames; ++t) {
            const std::int64_t s = temporal_start(t, a.frames, N);
            if (s != start) {  // slides by one frame
#pragma unroll
                for (int i = 0; i + 1 < N; ++i) w[i] = w[i + 1];
                w[N - 1] = col.key(s + N - 1);
                start = s;
            }
            const std::uint32_t median = median_of_frames<N, ScalarLanes>(w);
            const int own = static_cast<int>(t - s);  // frame t is always in its window
            std::uint32_t frame = w[0];
#pragma unroll
            for (int i = 1; i < N; ++i) frame = own == i ? w[i] : frame;
            store<T>(a, x, y, t, frame, median);
        }
    }
}

// The window's keys, in shared memory (frame f at slot f % window of this thread's column) or
// read from the frames [start, start + window).
template <class T, class K, bool kShared>
struct Window {
    Column<T> col;
    K* ring;          // shared: this thread's column, stride blockDim.x
    int n;
    std::int64_t start = 0;
    __device__ std::uint32_t key(int i) const {  // the i-th key (any order)
        if constexpr (kShared) return ring[i * blockDim.x];
        else return col.key(start + i);
    }
};

template <class W, class F>
__device__ void for_each_key(const W& w, F&& f) {
    int i = 0;
#pragma unroll 4
    for (; i < w.n; ++i) f(w.key(i));
}

template <class T, class K, bool kShared>
__global__ void temporal_sliding(const __grid_constant__ TemporalArgs a) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    const int n = a.window, rank = (n - 1) / 2;
    constexpr int kBits = sizeof(K) * 8;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        Window<T, K, kShared> w{Column<T>(a, x, y), reinterpret_cast<K*>(shared_bytes) + threadIdx.x, n};
        if constexpr (kShared)
            for (int i = 0; i < n; ++i) w.ring[i * blockDim.x] = static_cast<K>(w.col.key(i));
        // The first window's median by bisection over the key bits: the largest key m with at
        // most `rank` keys below it.
        std::uint32_t m = 0;
        for (int b = kBits - 1; b >= 0; --b) {
            const std::uint32_t trial = m | (1u << b);
            int below = 0;
            for_each_key(w, [&](std::uint32_t k) { below += k < trial; });
            if (below <= rank) m = trial;
        }
        int below = 0, equal = 0;  // window keys below m, and equal to it
        for_each_key(w, [&](std::uint32_t k) { below += k < m; equal += k == m; });
        int old_slot = 0, own_slot = 0;  // shared ring slots of frames `start` and t
        for (std::int64_t t = 0; t < a.frames; ++t) {
            const std::int64_t s = temporal_start(t, a.frames, n);
            if (s != w.start) {  // slides by one frame: w.start leaves, w.start + n enters
                const std::uint32_t gone = kShared ? w.key(old_slot) : w.col.key(w.start);
                const std::uint32_t come = w.col.key(w.start + n);
                if constexpr (kShared) {
                    w.ring[old_slot * blockDim.x] = static_cast<K>(come);
                    old_slot = old_slot + 1 == n ? 0 : old_slot + 1;
                }
                w.start = s;
                below += int(come < m) - int(gone < m);
                equal += int(come == m) - int(gone == m);
                // The rank moved below m's ties: m becomes the largest key below m.
                while (rank < below) {
                    std::uint32_t next = 0;
                    int count = 0;
                    for_each_key(w, [&](std::uint32_t k) {
                        const bool lower = k < m;
                        count = lower && k > next ? 1 : count + int(lower && k == next);
                        next = lower && k > next ? k : next;
                    });
                    m = next;
                    below -= count;
                    equal = count;
                }
                // ... or above them: m becomes the smallest key above m.
                while (rank >= below + equal) {
                    std::uint32_t next = OrderKey<T>::kMaxKey;
                    int count = 0;
                    for_each_key(w, [&](std::uint32_t k) {
                        const bool upper = k > m;
                        count = upper && k < next ? 1 : count + int(upper && k == next);
                        next = upper && k < next ? k : next;
                    });
                    below += equal;
                    m = next;
                    equal = count;
                }
            }
            const std::uint32_t own = kShared ? w.key(own_slot) : w.col.key(t);
            own_slot = own_slot + 1 == n ? 0 : own_slot + 1;
            store<T>(a, x, y, t, own, m);
        }
    }
}

template <class T>
__global__ void temporal_frames(const __grid_constant__ TemporalArgs a, const void* newest) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.width) return;
    const int n = static_cast<int>(a.frames), rank = (n - 1) / 2;
    for (int y = blockIdx.y; y < a.height; y += gridDim.y) {
        const Column<T> col(a, x, y);
        std::uint32_t m = 0;
        for (int b = sizeof(T) * 8 - 1; b >= 0; --b) {
            const std::uint32_t trial = m | (1u << b);
            int below = 0;
            for (int f = 0; f < n; ++f) below += col.key(f) < trial;
            if (below <= rank) m = trial;
        }
        const T frame = *(reinterpret_cast<const T*>(static_cast<const char*>(newest) + y * a.src_pitch) + x);
        store<T>(a, x, y, 0, OrderKey<T>::to_key(frame), m);
    }
}

dim3 grid_for(const TemporalArgs& a, int threads) {
    return dim3((a.width + threads - 1) / threads, a.height < kMaxGridY ? a.height : kMaxGridY);
}

template <class T, int N>
cudaError_t launch_network_n(const TemporalArgs& a, cudaStream_t stream) {
    temporal_network<T, N><<<grid_for(a, kNetworkThreads), kNetworkThreads, 0, stream>>>(a);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_network(const TemporalArgs& a, cudaStream_t stream) {
    switch (a.window) {
        case 1: return launch_network_n<T, 1>(a, stream);
        case 2: return launch_network_n<T, 2>(a, stream);
        case 3: return launch_network_n<T, 3>(a, stream);
        case 4: return launch_network_n<T, 4>(a, stream);
        case 5: return launch_network_n<T, 5>(a, stream);
        case 6: return launch_network_n<T, 6>(a, stream);
        case 7: return launch_network_n<T, 7>(a, stream);
        case 8: return launch_network_n<T, 8>(a, stream);
        case 9: return launch_network_n<T, 9>(a, stream);
        case 10: return launch_network_n<T, 10>(a, stream);
        default: return cudaErrorInvalidValue;
    }
    static_assert(kMaxFrameNetwork == 10, "extend the switch");
}

template <class T, class K>
cudaError_t launch_sliding(const TemporalArgs& a, int threads, bool shared, cudaStream_t stream) {
    if (!shared) {
        temporal_sliding<T, K, false><<<grid_for(a, threads), threads, 0, stream>>>(a);
        return cudaGetLastError();
    }
    const std::size_t bytes = std::size_t(a.window) * threads * sizeof(K);
    const cudaError_t e = opt_in_shared(temporal_sliding<T, K, true>, bytes);
    if (e != cudaSuccess) return e;
    temporal_sliding<T, K, true><<<grid_for(a, threads), threads, bytes, stream>>>(a);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_frames(const TemporalArgs& a, const void* newest, cudaStream_t stream) {
    temporal_frames<T><<<grid_for(a, kNetworkThreads), kNetworkThreads, 0, stream>>>(a, newest);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_temporal_network(const TemporalArgs& a, int pixel_type, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_network<std::uint8_t>(a, stream);
        case 1: return launch_network<std::uint16_t>(a, stream);
        default: return launch_network<float>(a, stream);
    }
}

cudaError_t launch_temporal_sliding(const TemporalArgs& a, int pixel_type, int threads,
                                    bool shared, cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_sliding<std::uint8_t, std::uint8_t>(a, threads, shared, stream);
        case 1: return launch_sliding<std::uint16_t, std::uint16_t>(a, threads, shared, stream);
        default: return launch_sliding<float, std::uint32_t>(a, threads, shared, stream);
    }
}

cudaError_t launch_temporal_frames(const TemporalArgs& a, const void* newest, int pixel_type,
                                   cudaStream_t stream) {
    switch (pixel_type) {
        case 0: return launch_frames<std::uint8_t>(a, newest, stream);
        case 1: return launch_frames<std::uint16_t>(a, newest, stream);
        default: return launch_frames<float>(a, newest, stream);
    }
}

}  // namespace fastmedian::kernels
