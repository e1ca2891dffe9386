// Which backend and device a call runs on, shared by every filter's dispatch.
#pragma once

#include <vector>

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// automatic: the CUDA device `device` (or, for host views, every one of `devices` where that is
// not empty) if it exists and this build can use it (DeviceInfo::unsupported), else the CPU.
// Throws Error(backend_unavailable) when CUDA is required (asked for by name, or the views are
// in CUDA memory) and cannot serve, saying why.
RunInfo choose_backend(Backend backend, int device, Memory memory,
                       const std::vector<int>& devices = {});

// The CPU reference's RunInfo.
RunInfo cpu_run_info();

}  // namespace fastmedian::detail
