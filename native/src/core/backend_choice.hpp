// Which backend and device a call runs on, shared by every filter's dispatch.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// automatic: the CUDA device `device` if it exists, else the CPU. Throws
// Error(backend_unavailable) when CUDA is required (asked for by name, or the views are in CUDA
// memory) and cannot serve.
RunInfo choose_backend(Backend backend, int device, Memory memory);

// The CPU reference's RunInfo.
RunInfo cpu_run_info();

}  // namespace fastmedian::detail
