// Links against the installed library and runs one median, then the README's C++ quick start as
// the README writes it: proves headers, library and package files are all installed and usable,
// and that the README's example compiles and runs.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <fastmedian/fastmedian.hpp>

namespace {

// A constant stack, whose median is itself. run_consumer.cmake copies the README's ```cpp block
// into readme_example.inc; it uses `in`, `out`, `w`, `h` and `planes`.
bool readme_example_runs() {
    const int w = 7, h = 5, planes = 2;
    std::vector<std::uint16_t> in(w * h * planes, 1234), out(in.size());
#include "readme_example.inc"
    return out == in;
}

}  // namespace

int main() {
    const std::uint8_t in[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    std::uint8_t out[9] = {};
    fastmedian::MedianOptions options;
    options.backend = fastmedian::Backend::cpu;
    fastmedian::median2d(fastmedian::view(in, 3, 3), fastmedian::view(out, 3, 3), options);
    std::printf("fastmedian %s: centre median %d\n", fastmedian::version(), out[4]);
    const bool readme = readme_example_runs();
    std::printf("README example: %s\n", readme ? "ran" : "wrong result");
    return out[4] == 5 && readme ? 0 : 1;
}
