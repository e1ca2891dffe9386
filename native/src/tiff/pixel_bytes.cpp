#include "pixel_bytes.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fastmedian::tiff {

namespace {

// From this size on a buffer takes whole huge pages (a 2 MiB page of x86-64 and most arm64
// kernels); smaller ones come from malloc as they are.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

void* allocate_pixel_buffer(std::size_t bytes) {
    if (bytes < kHugePage) {
        void* p = std::malloc(bytes == 0 ? 1 : bytes);
        if (p == nullptr) throw std::bad_alloc();
        return p;
    }
    const std::size_t whole = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    if (whole < bytes) throw std::bad_alloc();
    void* p = nullptr;
    if (::posix_memalign(&p, kHugePage, whole) != 0) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    ::madvise(p, whole, MADV_HUGEPAGE);  // a hint: where huge pages are off it changes nothing
#endif
    return p;
}

void free_pixel_buffer(void* p) noexcept { std::free(p); }

}  // namespace fastmedian::tiff
