#include "cpu/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "fastmedian/errors.hpp"

namespace fastmedian::detail {

int cpu_threads() {
    const char* env = std::getenv("FASTMEDIAN_CPU_THREADS");
    if (env == nullptr) return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || errno != 0 || n < 1 || n > std::numeric_limits<int>::max())
        throw Error(ErrorCode::invalid_argument,
                    std::string("FASTMEDIAN_CPU_THREADS must be a positive integer, got '") + env +
                        "'");
    return static_cast<int>(n);
}

void parallel_for(std::int64_t count, int threads,
                  const std::function<void(std::int64_t)>& body) {
    std::atomic<std::int64_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&] {
        for (std::int64_t i = next++; i < count; i = next++) {
            try {
                body(i);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next = count;  // stop handing out work
            }
        }
    };
    const auto helpers = static_cast<int>(std::min<std::int64_t>(threads, count)) - 1;
    std::vector<std::thread> pool;
    for (int t = 0; t < helpers; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // no more threads to be had: the ones started (and this one) do the work
        }
    }
    work();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace fastmedian::detail
