#include "cpu/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cerrno>
#include <pthread.h>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "fastmedian/errors.hpp"
#include "support/cancel.hpp"

namespace fastmedian::detail {

int cpu_threads() {
    const char* env = std::getenv("FASTMEDIAN_CPU_THREADS");
    // Set but empty counts as unset, as a shell's `FASTMEDIAN_CPU_THREADS= cmd` means.
    if (env == nullptr || *env == '\0')
        return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || errno != 0 || n < 1 || n > std::numeric_limits<int>::max())
        throw Error(ErrorCode::invalid_argument,
                    std::string("FASTMEDIAN_CPU_THREADS must be a positive integer, got '") + env +
                        "'");
    return static_cast<int>(n);
}

namespace {

// One parallel_for call: its indices, its caller's cancel flag, and the workers still inside it.
struct Job {
    Job(std::int64_t n, const std::function<void(std::int64_t)>& f, int helpers)
        : count(n), body(&f), cancel(cancel_flag()), helpers_wanted(helpers) {}

    std::int64_t count;
    const std::function<void(std::int64_t)>* body;
    const std::atomic<bool>* cancel;
    int helpers_wanted;  // workers that may still join
    int helpers_inside = 0;
    std::atomic<std::int64_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;

    // Checks the caller's flag before each index; a worker takes it on while it helps, so
    // that a parallel_for in the body checks it too.
    void work() {
        const UseCancelFlag use(cancel);
        for (std::int64_t i = next++; i < count; i = next++) {
            try {
                throw_if_cancelled();
                (*body)(i);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                next = count;  // stop handing out work
            }
        }
    }
};

// Workers that live as long as the process, so that a call pays a wake-up instead of starting
// threads (a small median on many cores takes about as long as starting them:
// docs/notebook/tuning-figures-from-comments.md).
// Calls from several threads queue their jobs; every caller works on its own job too, so a job
// finishes even when every worker is busy elsewhere, and a parallel_for inside a body cannot
// deadlock.
class Pool {
public:
    // The process's pool; a child made by fork() starts with a new, empty one (the parent's
    // workers do not exist there).
    static Pool& get() {
        static const bool registered = [] {
            pthread_atfork(nullptr, nullptr, [] { instance() = new Pool; });
            return true;
        }();
        (void)registered;
        return *instance();
    }

    void run(Job& job) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            grow(job.helpers_wanted);
            queue_.push_back(&job);
        }
        wake_.notify_all();
        job.work();
        std::unique_lock<std::mutex> lock(mutex_);
        queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
        done_.wait(lock, [&] { return job.helpers_inside == 0; });
    }

private:
    static Pool*& instance() {
        static Pool* pool = new Pool;  // never destroyed: workers may still wait at exit
        return pool;
    }

    // Starts workers up to `wanted` (under mutex_); fewer if the system has no more threads.
    void grow(int wanted) {
        while (workers_ < wanted) {
            try {
                std::thread([this] { serve(); }).detach();
            } catch (const std::system_error&) {
                return;  // the workers there are (and the callers) do the work
            }
            ++workers_;
        }
    }

    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            Job* job = nullptr;
            wake_.wait(lock, [&] {
                const auto open = std::find_if(queue_.begin(), queue_.end(), [](Job* j) {
                    return j->helpers_wanted > 0 && j->next < j->count;
                });
                job = open == queue_.end() ? nullptr : *open;
                return job != nullptr;
            });
            --job->helpers_wanted;
            ++job->helpers_inside;
            lock.unlock();
            job->work();
            lock.lock();
            if (--job->helpers_inside == 0) done_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::vector<Job*> queue_;
    int workers_ = 0;
};

}  // namespace

void parallel_for(std::int64_t count, int threads,
                  const std::function<void(std::int64_t)>& body) {
    if (count <= 0) return;
    Job job(count, body, static_cast<int>(std::min<std::int64_t>(threads, count)) - 1);
    if (job.helpers_wanted <= 0) job.work();
    else Pool::get().run(job);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace fastmedian::detail
