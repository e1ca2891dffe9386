// The fast CPU temporal median: the backend temporal_median runs on the CPU. Windows of up to
// 10 frames use the generated selection networks across neighbouring pixels (AVX2 where the CPU
// has it); longer windows keep every pixel's window sorted and slide it, one removal and one
// insertion per frame, instead of sorting it again. Tiles of pixels over all frames run on all
// cores. Same bits as temporal_median_reference.
#pragma once

#include <cstdint>

#include "fastmedian/image.hpp"
#include "semantics/median_output.hpp"

namespace fastmedian::detail {

// Expects validated arguments.
void temporal_median_cpu(const ConstImageView& src, const ImageView& dst, int window,
                         const kernels::OutputMode& offset);

// One output frame of the streaming form: the median of the `count` frames at
// frames + i * frame_bytes (dense planes of width x height pixels of `type`), finished with the
// frame `newest` (mode subtract), into `dst`.
void temporal_frame_cpu(const std::uint8_t* frames, std::int64_t frame_bytes, int count,
                        const std::uint8_t* newest, const ImageView& dst,
                        const kernels::OutputMode& offset);

}  // namespace fastmedian::detail
