// Stacks' pixel buffers: large ones are 2 MiB-aligned and marked for transparent huge pages
// (Linux's smaps lists the mark as VmFlags "hg"); small ones come from malloc; contents and
// growth are a vector's.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "pixel_bytes.hpp"

namespace tiff = fastmedian::tiff;

namespace {

// The VmFlags of the mapping that holds `p`, from /proc/self/smaps ("" if none is found).
std::string vm_flags(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        std::uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> lo >> dash >> hi && dash == '-') {
            inside = lo <= at && at < hi;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) return line;
    }
    return "";
}

bool marked_huge(const void* p) { return vm_flags(p).find(" hg") != std::string::npos; }

}  // namespace

TEST(PixelBytes, LargeBuffersAreMarkedForHugePages) {
    tiff::PixelBytes big(std::size_t{9} << 20, 7);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % (std::uintptr_t{2} << 20), 0u);
    EXPECT_EQ(big.front(), 7);
    EXPECT_EQ(big.back(), 7);
#if defined(__linux__)
    // Where the kernel has transparent huge pages and they are not off.
    std::string thp;
    std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), thp);
    if (!thp.empty() && thp.find("[never]") == std::string::npos && std::ifstream("/proc/self/smaps").good()) {
        EXPECT_TRUE(marked_huge(big.data())) << vm_flags(big.data());
        EXPECT_TRUE(marked_huge(big.data() + big.size() - 1)) << "the tail too";
    }
#endif
    tiff::PixelBytes small(1000, 3);
    EXPECT_EQ(small[999], 3);
    // Growth keeps the contents, as any vector's.
    for (int i = 0; i < 5000; ++i) small.push_back(static_cast<std::uint8_t>(i));
    EXPECT_EQ(small[999], 3);
    EXPECT_EQ(small[1000 + 4999], static_cast<std::uint8_t>(4999));
}
