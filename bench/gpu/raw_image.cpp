#include "raw_image.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
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

HostImage synthetic(fastmedian::PixelType type, std::int64_t size, const std::string& kind) {
    if (kind != "walk" && kind != "noise")
        throw std::runtime_error("synthetic data is 'walk' or 'noise', not '" + kind + "'");
    HostImage out;
    out.type = type;
    out.width = out.height = size;
    const auto px = fastmedian::pixel_size(type);
    out.bytes.resize(static_cast<std::size_t>(size * size) * px);
    const bool is_walk = kind == "walk";
    std::mt19937 rng(1);
    double walk = 30000;
    for (std::size_t i = 0; i < static_cast<std::size_t>(size * size); ++i) {
        const std::uint32_t r = rng();
        if (is_walk) walk = std::clamp(walk + static_cast<double>(r % 201) - 100, 0.0, 65535.0);
        std::uint8_t* p = &out.bytes[i * px];
        switch (type) {
            case fastmedian::PixelType::u8:
                *p = static_cast<std::uint8_t>(is_walk ? walk / 256 : r);
                break;
            case fastmedian::PixelType::u16: {
                const auto v = static_cast<std::uint16_t>(is_walk ? walk : r);
                std::memcpy(p, &v, sizeof v);
                break;
            }
            case fastmedian::PixelType::f32: {
                const float v = is_walk ? static_cast<float>(walk) : static_cast<float>(r >> 8) / 16777216.0f;
                std::memcpy(p, &v, sizeof v);
                break;
            }
        }
    }
    return out;
}

HostImage input_image(const std::string& dir, const std::string& data, fastmedian::PixelType type,
                      std::int64_t size) {
    return data == "images" ? tile(read_raw(dir, type), size) : synthetic(type, size, data);
}

std::string describe_input(const std::string& data) {
    return data == "images" ? "tiled from the shared images" : data + " (synthetic)";
}

}  // namespace bench
