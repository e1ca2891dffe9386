// The CPU backend's worker pool (cpu/parallel.hpp): every index once, on several threads,
// errors carried back, callers on many threads at once, calls inside calls, and a child made by
// fork() (which has none of its parent's workers).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cpu/parallel.hpp"

using fastmedian::detail::parallel_for;

namespace {

// Runs parallel_for and returns how often each index was called.
std::vector<int> hits(std::int64_t count, int threads) {
    std::vector<std::atomic<int>> calls(static_cast<std::size_t>(count));
    parallel_for(count, threads, [&](std::int64_t i) { ++calls[static_cast<std::size_t>(i)]; });
    return {calls.begin(), calls.end()};
}

// How many threads took part in a parallel_for of `count` indices that each take a while.
std::size_t threads_taking_part(std::int64_t count, int threads) {
    std::mutex mutex;
    std::set<std::thread::id> ids;
    parallel_for(count, threads, [&](std::int64_t) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        const std::lock_guard<std::mutex> lock(mutex);
        ids.insert(std::this_thread::get_id());
    });
    return ids.size();
}

}  // namespace

TEST(ParallelFor, WorkersTakePart) {
    EXPECT_GT(threads_taking_part(200, 4), 1u);
    EXPECT_EQ(threads_taking_part(20, 1), 1u);
}

TEST(ParallelFor, CallsEveryIndexOnceForAnyCountAndThreads) {
    for (std::int64_t count : {0, 1, 2, 7, 100, 1000})
        for (int threads : {1, 2, 3, 8, 33})
            EXPECT_EQ(hits(count, threads), std::vector<int>(static_cast<std::size_t>(count), 1))
                << count << " indices on " << threads << " threads";
}

TEST(ParallelFor, RethrowsTheFirstErrorAndKeepsWorking) {
    EXPECT_THROW(parallel_for(1000, 4,
                              [](std::int64_t i) {
                                  if (i == 5) throw std::runtime_error("index 5");
                              }),
                 std::runtime_error);
    EXPECT_EQ(hits(500, 4), std::vector<int>(500, 1));
}

TEST(ParallelFor, CallersOnManyThreadsAtOnce) {
    std::atomic<std::int64_t> total{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 8; ++t)
        callers.emplace_back([&] {
            for (int round = 0; round < 20; ++round)
                parallel_for(1000, 4, [&](std::int64_t i) { total += i; });
        });
    for (std::thread& c : callers) c.join();
    EXPECT_EQ(total, 8 * 20 * (999 * 1000 / 2));
}

TEST(ParallelFor, CallsInsideCallsFinish) {
    std::atomic<int> inner{0};
    parallel_for(16, 4, [&](std::int64_t) { parallel_for(10, 4, [&](std::int64_t) { ++inner; }); });
    EXPECT_EQ(inner, 160);
}

TEST(ParallelFor, AChildMadeByForkRunsIt) {
    // The parent's workers all running before the fork. Under AddressSanitizer, a worker still
    // starting when fork() ran left the child's new workers stuck before their first line, so
    // the child did everything on its own thread (in 7 of 10 sanitize runs; none after this).
    for (int tries = 0; tries < 100 && threads_taking_part(200, 4) < 4; ++tries) {
    }
    const pid_t child = fork();
    ASSERT_NE(child, -1);
    if (child == 0) {
        alarm(20);  // a child that hangs dies instead of stalling the suite
        _exit(hits(1000, 4) == std::vector<int>(1000, 1) && threads_taking_part(200, 4) > 1 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
}
