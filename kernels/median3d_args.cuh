// Arguments of the 3D median kernels: the volume in device memory (planes are z slices), the
// border, and the output planes one launch covers.
#pragma once

#include <cstdint>

namespace fastmedian::kernels {

struct VolumeArgs {
    const void* src;
    std::int64_t src_pitch;         // bytes between rows
    std::int64_t src_plane_stride;  // bytes between planes
    void* dst;
    std::int64_t dst_pitch;
    std::int64_t dst_plane_stride;
    int width;
    int height;
    int depth;                      // planes of the whole volume
    int first_plane;                // output plane of blockIdx.z == 0 (grid.z is at most 65535)
    int border;                     // BorderMode
    std::uint32_t outside_key;      // order key of the constant border value
};

// A 3D window as rows of centred runs (semantics/footprint3d.hpp), in device memory:
// half_width[(dz + radius_z) * (2 radius_y + 1) + dy + radius_y], -1 for an empty row.
struct Runs3DWindow {
    int radius_x, radius_y, radius_z;
    int rank;                       // of the median among the window's voxels
    const int* half_width;
};

}  // namespace fastmedian::kernels
