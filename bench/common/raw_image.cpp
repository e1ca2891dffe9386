#include "raw_image.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

// Index i of a mirror tiling (d c b a | a b c d) of n values.
std::int64_t fold(std::int64_t i, std::int64_t n) {
    const std::int64_t m = i % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
}

}  // namespace

fastmedian::ConstImageView HostImage::view() const {
    fastmedian::ConstImageView v;
    v.data = bytes.data();
    v.type = type;
    v.width = width;
    v.height = height;
    v.planes = depth;
    v.row_stride = width * static_cast<std::int64_t>(fastmedian::pixel_size(type));
    v.plane_stride = v.row_stride * height;
    return v;
}

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

HostImage bead_volume(const std::string& dir, fastmedian::PixelType type, std::int64_t w,
                      std::int64_t h, std::int64_t d) {
    const std::string path = dir + "/volume_u8_150x150x41.raw";
    const std::int64_t n = 150, depth = 41;
    std::vector<std::uint8_t> beads(static_cast<std::size_t>(n * n * depth));
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(beads.data()), static_cast<std::streamsize>(beads.size()));
    if (!in) throw std::runtime_error("cannot read " + path + " (run bench/gpu/prepare_images.py)");
    HostImage out;
    out.type = type;
    out.width = w;
    out.height = h;
    out.depth = d;
    const std::size_t px = fastmedian::pixel_size(type);
    out.bytes.resize(static_cast<std::size_t>(out.pixels()) * px);
    for (std::int64_t z = 0; z < d; ++z)
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                const std::uint8_t v = beads[static_cast<std::size_t>(
                    (fold(z, depth) * n + fold(y, n)) * n + fold(x, n))];
                std::uint8_t* p = &out.bytes[static_cast<std::size_t>((z * h + y) * w + x) * px];
                if (type == fastmedian::PixelType::u8) {
                    *p = v;
                } else if (type == fastmedian::PixelType::u16) {
                    const auto u = static_cast<std::uint16_t>(v * 257);
                    std::memcpy(p, &u, sizeof u);
                } else {
                    const float f = v / 255.0f;
                    std::memcpy(p, &f, sizeof f);
                }
            }
    return out;
}

}  // namespace bench
