// fastmedian median IN.tif OUT.tif (--size K | --radius R) [--border B] [--cval V] [--backend B]
#include <cmath>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

namespace {

Window parse_window(const Args& a) {
    const std::string* size = a.get("--size");
    const std::string* radius = a.get("--radius");
    if ((size == nullptr) == (radius == nullptr))
        throw UsageError("median needs exactly one of --size K (square) or --radius R (circle)");
    if (size != nullptr) {
        int k = 0;
        if (!parse_int(*size, k) || k < 1 || k % 2 == 0 || k > Window::kMaxSize)
            throw UsageError("--size must be an odd integer from 1 to " +
                             std::to_string(Window::kMaxSize) + ", got " + shown(*size));
        return Window::square(k);
    }
    double r = 0.0;
    if (!parse_double(*radius, r) || !std::isfinite(r) || r < 0.0 || r > Window::kMaxRadius)
        throw UsageError("--radius must be a number from 0 to " +
                         std::to_string(static_cast<int>(Window::kMaxRadius)) + ", got " +
                         shown(*radius));
    return Window::circle(r);
}

}  // namespace

int median_command(const std::vector<std::string>& args) {
    const Args a(args, {"--size", "--radius", "--border", "--cval", "--backend"});
    if (a.positionals().size() != 2)
        throw UsageError("median needs IN.tif and OUT.tif, got " +
                         std::to_string(a.positionals().size()) + " paths");
    MedianOptions o;
    o.window = parse_window(a);
    if (const std::string* b = a.get("--border")) o.border = parse_border(*b, "--border");
    if (const std::string* v = a.get("--cval")) {
        if (o.border != Border::constant)
            throw UsageError("--cval applies only to --border constant");
        // NaN and infinities are meaningful outside values for float images; filter_file
        // refuses them for integer images once it knows the type.
        if (!parse_double(*v, o.cval))
            throw UsageError("--cval must be a number, got " + shown(*v));
    }
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    const std::string& in = a.positionals()[0];
    const std::string& out = a.positionals()[1];
    const FilterResult r = filter_file(in, out, o);
    std::cout << summary(o, r, out) << "\n";
    return 0;
}

}  // namespace fastmedian::cli
