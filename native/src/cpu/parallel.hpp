// Runs independent pieces of work on all cores with plain std::threads.
#pragma once

#include <cstdint>
#include <functional>

namespace fastmedian::detail {

// Hardware threads of this machine, at least 1.
int cpu_threads();

// Calls body(i) once for every i in [0, count), on up to `threads` threads (the caller's
// included), handing out indices in order. Rethrows the first exception a call threw.
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& body);

}  // namespace fastmedian::detail
