// The files a filter command runs over: "IN OUT", or with --out-dir DIR every path given is an
// input, written into DIR under its own file name, one after another.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "args.hpp"

namespace fastmedian::cli {

struct FilePair {
    std::string in, out;
};

// Throws UsageError: not two paths without --out-dir; none with it; DIR not a folder; two
// inputs of one name (the second's output would replace the first's).
std::vector<FilePair> file_pairs(const Args& a, const std::string& command);

// Runs `filter` (which prints its summary line) on each pair. One pair: as it is, a failure
// thrown to the caller. Several: a failure is told (tell_failure) and the next file taken, so
// one bad file in a folder does not stop the rest; returns the largest exit status (0: all
// done).
int run_each(const std::vector<FilePair>& pairs, const std::function<void(const FilePair&)>& filter);

// The current exception told as main tells it, "fastmedian: <message>" on stderr, and its exit
// status: 2 for usage and argument errors, 1 for the rest. Call inside a catch block.
int tell_failure();

}  // namespace fastmedian::cli
