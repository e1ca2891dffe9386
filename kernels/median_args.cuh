// Arguments every median kernel takes: pitched planes in device memory, border, and for
// windows given as rows of runs (circles, any square) the runs themselves, passed by value
// (kernel parameters may hold 32 KB since CUDA 12.1) so a launch needs no upload.
#pragma once

#include <cstdint>

namespace fastmedian::kernels {

struct PlanesArgs {
    const void* src;
    std::int64_t src_pitch;         // bytes between rows
    std::int64_t src_plane_stride;  // bytes between planes
    void* dst;
    std::int64_t dst_pitch;
    std::int64_t dst_plane_stride;
    int width;
    int height;
    int planes;                     // at most 65535 per launch (grid.z)
    int border;                     // BorderMode
    std::uint32_t outside_key;      // order key of the constant border value
};

// Whether both planes' pointers, rows and planes lie on multiples of `bytes`, for kernels that
// load and store that many bytes at a time.
inline bool planes_aligned(const PlanesArgs& a, std::int64_t bytes) {
    auto aligned = [&](std::int64_t v) { return v % bytes == 0; };
    return aligned(reinterpret_cast<std::intptr_t>(a.src)) && aligned(a.src_pitch) && aligned(a.src_plane_stride) &&
           aligned(reinterpret_cast<std::intptr_t>(a.dst)) && aligned(a.dst_pitch) && aligned(a.dst_plane_stride);
}

struct RunsWindow {
    static constexpr int kMaxRows = 1023;
    int radius_y;
    int rank;                       // rank of the median among the window's values
    int half_width[kMaxRows];       // 2 * radius_y + 1 entries used
};

}  // namespace fastmedian::kernels
