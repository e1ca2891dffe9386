// FASTMEDIAN_CPU_THREADS for as long as a CpuThreads lives (the CPU backend reads it each call),
// then as it was: for tests whose case needs the bands of a given number of threads.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace fmtest {

class CpuThreads {
public:
    explicit CpuThreads(int threads) {
        if (const char* was = std::getenv(kName)) was_ = was;
        setenv(kName, std::to_string(threads).c_str(), 1);
    }
    ~CpuThreads() {
        if (was_) setenv(kName, was_->c_str(), 1);
        else unsetenv(kName);
    }
    CpuThreads(const CpuThreads&) = delete;
    CpuThreads& operator=(const CpuThreads&) = delete;

private:
    static constexpr const char* kName = "FASTMEDIAN_CPU_THREADS";
    std::optional<std::string> was_;
};

}  // namespace fmtest
