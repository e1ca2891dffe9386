// fastmedian info: the version and what CUDA offers here.
#include <cstdio>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/fastmedian.hpp"

namespace fastmedian::cli {

int info_command(const std::vector<std::string>& args) {
    if (!Args(args, {}).positionals().empty()) throw UsageError("info takes no arguments");
    std::cout << "fastmedian " << version() << "\n";
    std::cout << "CUDA backend: ";
    if (cuda_compiled())
        std::cout << "compiled for GPU architectures " << cuda_architectures() << "\n";
    else
        std::cout << "not compiled\n";
    const std::vector<DeviceInfo> devices = cuda_devices();
    if (devices.empty()) std::cout << "CUDA devices: none (" << cuda_unavailable_reason() << ")\n";
    for (const DeviceInfo& d : devices) {
        char memory[32];
        std::snprintf(memory, sizeof memory, "%.1f GiB",
                      static_cast<double>(d.memory_bytes) / (1u << 30));
        std::cout << "CUDA device " << d.index << ": " << d.name << ", compute capability "
                  << d.compute_major << "." << d.compute_minor << ", " << memory;
        if (d.unsupported.empty())
            std::cout << ", policy " << d.policy << "\n";
        else
            std::cout << ", not usable: " << d.unsupported << "\n";
    }
    return 0;
}

}  // namespace fastmedian::cli
