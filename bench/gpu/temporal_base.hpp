// The base plane of the temporal benchmarks' movie (temporal_stack.hpp): the real plane of
// `type` from bench/gpu/images (made by prepare_images.py), mirror-tiled to
// (size + 2 * kStackMargin)^2, or uniform random pixels when that folder has none.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <random>
#include <string>

#include "raw_image.hpp"
#include "temporal_stack.hpp"

namespace bench {

// `source` says where the pixels came from ("u16_1040x780.raw" or "random: <why>").
inline HostImage temporal_base(const std::string& images, fastmedian::PixelType type,
                               std::int64_t size, std::string& source) {
    const std::int64_t side = size + 2 * kStackMargin;
    try {
        HostImage raw = read_raw(images, type);
        source = std::string(fastmedian::pixel_type_name(type)) + "_" +
                 std::to_string(raw.width) + "x" + std::to_string(raw.height) + ".raw";
        return tile(raw, side);
    } catch (const std::exception& e) {
        source = std::string("random (") + e.what() + ")";
    }
    HostImage img;
    img.type = type;
    img.width = img.height = side;
    img.bytes.resize(static_cast<std::size_t>(side * side) * fastmedian::pixel_size(type));
    std::mt19937 rng(12345);
    const std::size_t n = static_cast<std::size_t>(side * side);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t r = rng();
        switch (type) {
            case fastmedian::PixelType::u8: img.bytes[i] = static_cast<std::uint8_t>(r); break;
            case fastmedian::PixelType::u16: {
                const auto v = static_cast<std::uint16_t>(r);
                std::memcpy(&img.bytes[2 * i], &v, 2);
                break;
            }
            case fastmedian::PixelType::f32: {
                const float v = static_cast<float>(r >> 8) * (1.0f / 16777216.0f);
                std::memcpy(&img.bytes[4 * i], &v, 4);
                break;
            }
        }
    }
    return img;
}

}  // namespace bench
