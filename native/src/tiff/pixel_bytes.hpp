// Storage for stacks' pixels. A buffer of a few MiB or more is aligned to 2 MiB and marked for
// transparent huge pages (Linux's madvise mode, Debian's default), so that the first touch of
// a new buffer takes a page fault per 2 MiB instead of per 4 KiB: reading, filtering into and
// writing a fresh 403 MB stack was mostly page faults on the build machine (figures:
// docs/notebook/cli-huge-pages-2026-11-29.md). Elsewhere, or where huge pages are off, the
// hint is ignored and the buffer is an ordinary one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace fastmedian::tiff {

// Throws std::bad_alloc.
void* allocate_pixel_buffer(std::size_t bytes);
void free_pixel_buffer(void* p) noexcept;

template <class T>
struct PixelAllocator {
    using value_type = T;
    PixelAllocator() = default;
    template <class U>
    PixelAllocator(const PixelAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(allocate_pixel_buffer(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t) noexcept { free_pixel_buffer(p); }
    template <class U>
    bool operator==(const PixelAllocator<U>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const PixelAllocator<U>&) const noexcept { return false; }
};

using PixelBytes = std::vector<std::uint8_t, PixelAllocator<std::uint8_t>>;

}  // namespace fastmedian::tiff
