// fastmedian median IN.tif OUT.tif (--size K | --radius R) [--border B] [--cval V] [--backend B]
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "filter_args.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

int median_command(const std::vector<std::string>& args) {
    const Args a(args, {"--size", "--radius", "--border", "--cval", "--backend"});
    if (a.positionals().size() != 2)
        throw UsageError("median needs IN.tif and OUT.tif, got " +
                         std::to_string(a.positionals().size()) + " paths");
    MedianOptions o;
    o.window = parse_window(a, "median");
    parse_border_and_cval(a, o.border, o.cval);
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    const std::string& in = a.positionals()[0];
    const std::string& out = a.positionals()[1];
    const FilterResult r = filter_file(in, out, o);
    std::cout << summary(o, r, out) << "\n";
    return 0;
}

}  // namespace fastmedian::cli
