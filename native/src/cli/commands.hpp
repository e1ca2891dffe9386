// The subcommands of `fastmedian`. Each takes the words after its name, prints its results to
// stdout and returns the exit code; failures are thrown (UsageError or fastmedian::Error).
#pragma once

#include <string>
#include <vector>

namespace fastmedian::cli {

extern const char* const kUsage;

int median_command(const std::vector<std::string>& args);
int temporal_command(const std::vector<std::string>& args);
int background_command(const std::vector<std::string>& args);
int convolve_command(const std::vector<std::string>& args);
int info_command(const std::vector<std::string>& args);
int demo_command(const std::vector<std::string>& args);

}  // namespace fastmedian::cli
