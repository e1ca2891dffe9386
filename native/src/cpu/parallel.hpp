// Runs independent pieces of work on all cores (or FASTMEDIAN_CPU_THREADS), on a pool of
// worker threads that lives as long as the process.
#pragma once

#include <cstdint>
#include <functional>

namespace fastmedian::detail {

// Hardware threads of this machine, at least 1; the environment variable
// FASTMEDIAN_CPU_THREADS (a positive integer, read at every call; empty counts as unset)
// overrides it, e.g. for one core per Dask worker. Throws Error (invalid_argument) naming it
// when it holds anything else.
int cpu_threads();

// Calls body(i) once for every i in [0, count), on up to `threads` threads (the caller's
// included), handing out indices in order. Rethrows the first exception a call threw. Throws
// Error(cancelled) instead of starting an index once the caller's CancelScope flag is set.
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& body);

}  // namespace fastmedian::detail
