// Links against the installed library and runs one median: proves headers, library and
// package files are all installed and usable.
#include <cstdint>
#include <cstdio>

#include <fastmedian/fastmedian.hpp>

int main() {
    const std::uint8_t in[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    std::uint8_t out[9] = {};
    fastmedian::MedianOptions options;
    options.backend = fastmedian::Backend::cpu;
    fastmedian::median2d(fastmedian::view(in, 3, 3), fastmedian::view(out, 3, 3), options);
    std::printf("fastmedian %s: centre median %d\n", fastmedian::version(), out[4]);
    return out[4] == 5 ? 0 : 1;
}
