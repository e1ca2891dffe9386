// fastmedian demo: a 5x5 median of a real microscopy image shipped with the sources.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "filter_args.hpp"
#include "filter_file.hpp"

namespace fs = std::filesystem;

namespace fastmedian::cli {

namespace {

// FASTMEDIAN_DATA_DIR overrides the source tree's data/ folder compiled in.
fs::path demo_image() {
    const char* dir = std::getenv("FASTMEDIAN_DATA_DIR");
    const fs::path image = fs::path(dir != nullptr ? dir : FASTMEDIAN_SOURCE_DATA_DIR) /
                           "embryos_grey.tif";
    if (!fs::exists(image))
        throw Error(ErrorCode::io_error, "demo image " + image.string() +
                    " not found; set FASTMEDIAN_DATA_DIR to the folder holding embryos_grey.tif");
    return image;
}

}  // namespace

int demo_command(const std::vector<std::string>& args) {
    const Args a(args, {"--out", "--backend", "--max-memory"});
    if (!a.positionals().empty()) throw UsageError("demo takes no paths; use --out PATH");
    MedianOptions o;
    o.window = Window::square(5);
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    const std::uint64_t max_memory = parse_max_memory(a);
    // The temporary directory, not the current one, so a demo run leaves no clutter behind.
    const std::string out = a.get("--out") != nullptr
                                ? *a.get("--out")
                                : (fs::temp_directory_path() / "fastmedian-demo.tif").string();
    const std::string in = demo_image().string();
    const FilterResult r = filter_file(in, out, o, max_memory, false);
    std::cout << "demo: 5x5 median of brightfield embryos " << in << "\n"
              << summary(o, r, out) << "\n"
              << "wrote " << out << "\n";
    return 0;
}

}  // namespace fastmedian::cli
