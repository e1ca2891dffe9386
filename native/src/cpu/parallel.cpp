#include "cpu/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace fastmedian::detail {

int cpu_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

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
