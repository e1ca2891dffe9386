#include "file_pairs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <map>

#include "fastmedian/errors.hpp"

namespace fastmedian::cli {

namespace {

// The last component of a path ("a/b/c.tif" -> "c.tif").
std::string file_name(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<FilePair> file_pairs(const Args& a, const std::string& command) {
    const std::vector<std::string>& paths = a.positionals();
    const std::string* dir = a.get("--out-dir");
    if (dir == nullptr) {
        if (paths.size() != 2)
            throw UsageError(command + " needs IN.tif and OUT.tif, got " +
                             std::to_string(paths.size()) + " paths");
        return {{paths[0], paths[1]}};
    }
    if (paths.empty())
        throw UsageError(command + " --out-dir needs at least one input file");
    struct stat st{};
    if (dir->empty() || ::stat(dir->c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw UsageError("--out-dir " + shown(*dir) + " is not an existing folder");
    std::vector<FilePair> pairs;
    std::map<std::string, std::string> by_name;  // output name -> the input it comes from
    for (const std::string& in : paths) {
        const std::string name = file_name(in);
        if (name.empty() || name == "." || name == "..")
            throw UsageError("input " + shown(in) + " names no file to write into --out-dir");
        const auto [it, fresh] = by_name.emplace(name, in);
        if (!fresh)
            throw UsageError("inputs " + it->second + " and " + in + " would both be written to " +
                             *dir + "/" + name);
        pairs.push_back({in, *dir + "/" + name});
    }
    return pairs;
}

int run_each(const std::vector<FilePair>& pairs, const std::function<void(const FilePair&)>& filter) {
    if (pairs.size() == 1) {
        filter(pairs[0]);
        return 0;
    }
    int status = 0;
    for (const FilePair& p : pairs) {
        try {
            filter(p);
        } catch (...) {
            status = std::max(status, tell_failure());
        }
    }
    return status;
}

int tell_failure() {
    try {
        throw;
    } catch (const UsageError& e) {
        std::cerr << "fastmedian: " << e.what() << " (see fastmedian --help)\n";
        return 2;
    } catch (const Error& e) {
        std::cerr << "fastmedian: " << e.what() << "\n";
        return e.code() == ErrorCode::invalid_argument ? 2 : 1;
    } catch (const std::exception& e) {
        std::cerr << "fastmedian: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace fastmedian::cli
