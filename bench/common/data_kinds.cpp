#include "data_kinds.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>

namespace bench {

namespace {

namespace fm = fastmedian;

const char* const kKinds[] = {"images", "flat", "noise", "walk"};

bool applies(const std::string& kind, fm::PixelType type) {
    return kind != "flat" || type == fm::PixelType::f32;
}

template <class T>
T* values(HostImage& image) {
    return reinterpret_cast<T*>(image.bytes.data());
}

// An image of the same type and shape, zero.
HostImage like(const HostImage& shape) {
    HostImage out;
    out.type = shape.type;
    out.width = shape.width;
    out.height = shape.height;
    out.depth = shape.depth;
    out.bytes.resize(shape.bytes.size());
    return out;
}

// Uniform over the type's range; for f32, the n floats that follow 1.0f (every value distinct,
// ranks uniform) in random order.
HostImage noise(const HostImage& shape) {
    HostImage out = like(shape);
    const auto n = static_cast<std::size_t>(out.pixels());
    std::mt19937 rng(1);
    switch (out.type) {
        case fm::PixelType::u8:
            for (std::size_t i = 0; i < n; ++i) values<std::uint8_t>(out)[i] = static_cast<std::uint8_t>(rng());
            break;
        case fm::PixelType::u16:
            for (std::size_t i = 0; i < n; ++i) values<std::uint16_t>(out)[i] = static_cast<std::uint16_t>(rng());
            break;
        case fm::PixelType::f32: {
            if (n > (std::size_t{1} << 30)) throw std::runtime_error("noise: over 2^30 distinct floats");
            std::vector<std::uint32_t> bits(n);
            std::iota(bits.begin(), bits.end(), std::uint32_t{0x3f800000});  // 1.0f and up
            std::shuffle(bits.begin(), bits.end(), rng);
            std::memcpy(out.bytes.data(), bits.data(), n * sizeof(float));
            break;
        }
    }
    return out;
}

// The shared f32 image divided by a flat field falling from 1 at the centre to 0.55 in the
// corners (vignetting), plus Gaussian noise of a hundredth of the image's range.
HostImage flat_field(const HostImage& shared) {
    if (shared.type != fm::PixelType::f32) throw std::runtime_error("flat data is f32 only");
    HostImage out = like(shared);
    const float* in = reinterpret_cast<const float*>(shared.bytes.data());
    const auto [lo, hi] = std::minmax_element(in, in + shared.pixels());
    std::normal_distribution<double> gauss(0.0, 0.01 * std::max(1.0, double{*hi} - *lo));
    std::mt19937 rng(2);
    const double cx = 0.5 * static_cast<double>(shared.width - 1);
    const double cy = 0.5 * static_cast<double>(shared.height - 1);
    const double corner = cx * cx + cy * cy + 1.0;
    float* v = values<float>(out);
    for (std::int64_t z = 0; z < shared.depth; ++z)
        for (std::int64_t y = 0; y < shared.height; ++y)
            for (std::int64_t x = 0; x < shared.width; ++x) {
                const double dx = static_cast<double>(x) - cx, dy = static_cast<double>(y) - cy;
                const double flat = 1.0 - 0.45 * (dx * dx + dy * dy) / corner;
                const std::int64_t i = (z * shared.height + y) * shared.width + x;
                v[i] = static_cast<float>(in[i] / flat + gauss(rng));
            }
    return out;
}

// A random walk along the rows: steps of -100..100 in u16 units, a 256th of that for u8, the
// same numbers for f32.
HostImage walk(const HostImage& shape) {
    HostImage out = like(shape);
    std::mt19937 rng(1);
    double w = 30000;
    for (std::int64_t i = 0; i < out.pixels(); ++i) {
        w = std::clamp(w + static_cast<double>(rng() % 201) - 100, 0.0, 65535.0);
        switch (out.type) {
            case fm::PixelType::u8: values<std::uint8_t>(out)[i] = static_cast<std::uint8_t>(w / 256); break;
            case fm::PixelType::u16: values<std::uint16_t>(out)[i] = static_cast<std::uint16_t>(w); break;
            case fm::PixelType::f32: values<float>(out)[i] = static_cast<float>(w); break;
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> data_kinds(const std::string& data, fm::PixelType type) {
    std::vector<std::string> kinds;
    if (data == "all") {
        for (const char* k : {"images", "flat", "noise"})
            if (applies(k, type)) kinds.emplace_back(k);
        return kinds;
    }
    for (std::size_t p = 0; p < data.size();) {
        const std::size_t q = std::min(data.find(',', p), data.size());
        const std::string kind = data.substr(p, q - p);
        if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds))
            throw std::runtime_error("--data takes all or a list of images, flat, noise, walk; not '" +
                                     kind + "'");
        if (applies(kind, type)) kinds.push_back(kind);
        p = q + 1;
    }
    return kinds;
}

HostImage make_input(const std::string& kind, const HostImage& shared) {
    if (kind == "images") return shared;
    if (kind == "flat") return flat_field(shared);
    if (kind == "noise") return noise(shared);
    if (kind == "walk") return walk(shared);
    throw std::runtime_error("unknown data kind '" + kind + "'");
}

HostImage input_plane(const std::string& dir, const std::string& kind, fm::PixelType type,
                      std::int64_t size) {
    return make_input(kind, tile(read_raw(dir, type), size));
}

std::string dump_input(const std::string& dir, const std::string& kind, const HostImage& input) {
    std::filesystem::create_directories(dir);
    std::string name = kind + "_" + fm::pixel_type_name(input.type) + "_" +
                       std::to_string(input.width) + "x" + std::to_string(input.height);
    if (input.depth > 1) name += "x" + std::to_string(input.depth);
    const std::string path = dir + "/" + name + ".raw";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(input.bytes.data()),
              static_cast<std::streamsize>(input.bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
    return path;
}

}  // namespace bench
