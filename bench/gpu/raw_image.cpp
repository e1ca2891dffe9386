#include "raw_image.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace bench {

HostImage read_raw(const std::string& dir, fastmedian::PixelType type) {
    const std::string prefix = std::string(fastmedian::pixel_type_name(type)) + "_";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".raw") continue;
        HostImage image;
        image.type = type;
        if (std::sscanf(name.c_str() + prefix.size(), "%ldx%ld", &image.width, &image.height) != 2)
            continue;
        image.bytes.resize(static_cast<std::size_t>(image.width * image.height) *
                           fastmedian::pixel_size(type));
        std::ifstream in(entry.path(), std::ios::binary);
        in.read(reinterpret_cast<char*>(image.bytes.data()),
                static_cast<std::streamsize>(image.bytes.size()));
        if (!in) throw std::runtime_error("cannot read " + entry.path().string());
        return image;
    }
    throw std::runtime_error("no " + prefix + "WxH.raw in " + dir +
                             " (run bench/gpu/prepare_images.py)");
}

HostImage tile(const HostImage& image, std::int64_t size) {
    const auto px = static_cast<std::int64_t>(fastmedian::pixel_size(image.type));
    auto fold = [](std::int64_t i, std::int64_t n) {
        const std::int64_t m = i % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    };
    HostImage out;
    out.type = image.type;
    out.width = out.height = size;
    out.bytes.resize(static_cast<std::size_t>(size * size * px));
    for (std::int64_t y = 0; y < size; ++y) {
        const std::uint8_t* row = image.bytes.data() + fold(y, image.height) * image.width * px;
        for (std::int64_t x = 0; x < size; ++x)
            std::memcpy(&out.bytes[static_cast<std::size_t>((y * size + x) * px)],
                        row + fold(x, image.width) * px, static_cast<std::size_t>(px));
    }
    return out;
}

}  // namespace bench
