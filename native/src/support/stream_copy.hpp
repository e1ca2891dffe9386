// Copies to memory that this core does not read next: the plane pipeline's staging buffers
// (read by the DMA engine) and the CPU backend's output rows of large images.
#pragma once

#include <cstdint>

namespace fastmedian::detail {

// Copies `rows` rows of `row_bytes` between two pitched areas of host memory, with streaming stores
// where the CPU has them (x86-64) and the rows are long enough: the destination is read next by the
// DMA engine or by the caller, not by this core, so it is not worth reading into this core's cache
// first (more planes a second through the pipeline: docs/notebook/tuning-figures-from-comments.md).
// The stores are fenced (stream_fence) before it returns.
void copy_rows(void* dst, std::int64_t dst_pitch, const void* src, std::int64_t src_pitch,
               std::int64_t row_bytes, std::int64_t rows);

// copy_rows without the closing fence, for a caller that writes row after row and fences once
// (stream_fence) before another thread may read them: a fence a row of a few hundred bytes
// cost the CPU 3D median 20% on blocks 256 pixels wide.
void copy_rows_unfenced(void* dst, std::int64_t dst_pitch, const void* src,
                        std::int64_t src_pitch, std::int64_t row_bytes, std::int64_t rows);

// Orders this thread's streaming stores before its later stores (x86-64's sfence).
void stream_fence();

}  // namespace fastmedian::detail
