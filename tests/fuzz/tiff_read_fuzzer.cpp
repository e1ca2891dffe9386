// libFuzzer target: the input as a TIFF file, read by read_tiff as the CLI reads its input.
// Each input must give a whole stack or a fastmedian::Error; anything else (a crash, a
// sanitizer report, a leak, another exception, an allocation past libFuzzer's limit) is a
// finding.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fastmedian/errors.hpp"
#include "tiff_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // One in-memory file, rewritten for each input; read_tiff opens it by its /proc name.
    static const int fd = memfd_create("input.tif", MFD_CLOEXEC);
    static const std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (fd < 0 || ::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size))
        std::abort();
    try {
        const fastmedian::tiff::Stack s = fastmedian::tiff::read_tiff(path);
        // A stack must hold exactly the pixels it claims, or its views overrun.
        const auto expected = static_cast<std::size_t>(s.width * s.height * s.planes) *
                              fastmedian::pixel_size(s.type);
        if (s.planes < 1 || s.bytes.size() != expected) std::abort();
    } catch (const fastmedian::Error&) {
    }
    return 0;
}
