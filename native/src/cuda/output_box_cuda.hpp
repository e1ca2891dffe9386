// A box of the output (Origin) on the CUDA backend, whose kernels write whole views.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

#include "semantics/output_box.hpp"

namespace fastmedian::detail {

// `filter(part, whole)` filters the part of src that the box's windows read (source_part) into
// `whole`, a temporary as large in the same memory (device memory: enqueued on `stream`, and
// released in its order); the box is then copied from it into dst (on `stream` for device
// memory, which the caller waits for as it would for the filter).
void filter_box_cuda(const SourcePart& part, const ImageView& dst, cudaStream_t stream,
                     const std::function<void(const ConstImageView&, const ImageView&)>& filter);

}  // namespace fastmedian::detail
