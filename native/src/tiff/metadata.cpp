#include "metadata.hpp"

#include <cstdint>
#include <cstring>
#include <numeric>
#include <sstream>
#include <utility>
#include <vector>

namespace fastmedian::tiff {

namespace {

// ImageJ's private tags (ij.io.TiffEncoder): the byte count of each metadata block, and the
// blocks themselves (a header, then the Info text, slice labels, display ranges, LUTs, ...).
constexpr std::uint32_t kImageJCounts = 50838;
constexpr std::uint32_t kImageJData = 50839;

// libtiff knows no private tag of a file it writes until told of it; on reading it makes
// one up for each tag it finds.
bool know_imagej_tags(TIFF* tif) {
    if (TIFFFindField(tif, kImageJCounts, TIFF_ANY) != nullptr &&
        TIFFFindField(tif, kImageJData, TIFF_ANY) != nullptr)
        return true;
    static const TIFFFieldInfo info[] = {
        {kImageJCounts, TIFF_VARIABLE2, TIFF_VARIABLE2, TIFF_LONG, FIELD_CUSTOM, 1, 1,
         const_cast<char*>("IJMetaDataByteCounts")},
        {kImageJData, TIFF_VARIABLE2, TIFF_VARIABLE2, TIFF_BYTE, FIELD_CUSTOM, 1, 1,
         const_cast<char*>("IJMetaData")},
    };
    return TIFFMergeFieldInfo(tif, info, 2) == 0;
}

// The value of attribute `name` inside the tag text [begin, end) of `xml`, replaced by `value`;
// nothing happens when the attribute is absent.
void set_attribute(std::string& xml, std::size_t begin, std::size_t& end, const std::string& name,
                   const std::string& value) {
    for (std::size_t at = xml.find(name + "=\"", begin); at != std::string::npos && at < end;
         at = xml.find(name + "=\"", at + 1)) {
        if (at == begin || std::strchr(" \t\r\n", xml[at - 1]) == nullptr) continue;
        const std::size_t first = at + name.size() + 2;
        const std::size_t last = xml.find('"', first);
        if (last == std::string::npos || last > end) return;
        xml.replace(first, last - first, value);
        end = end + value.size() - (last - first);
        return;
    }
}

// A 4-byte number of ImageJ's metadata header, in the byte order its magic number shows.
std::uint32_t header_word(const std::uint8_t* p, bool big_endian) {
    return big_endian ? std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 |
                            std::uint32_t{p[2]} << 8 | p[3]
                      : std::uint32_t{p[3]} << 24 | std::uint32_t{p[2]} << 16 |
                            std::uint32_t{p[1]} << 8 | p[0];
}

// ImageJ's metadata without its slice labels. The data is a header ("IJIJ", then a type and a
// count of items for each kind: info, labels, ranges, LUTs, ...) and the items in that order;
// the counts tag gives the header's length, then each item's. Anything not laid out so is
// dropped whole rather than guessed at.
void drop_slice_labels(Metadata& m) {
    constexpr std::uint32_t kLabels = 0x6c61626c;  // "labl"
    const auto drop_all = [&m] { m.imagej_counts.clear(), m.imagej_data.clear(); };
    if (m.imagej_counts.empty()) return;
    const std::uint32_t header = m.imagej_counts[0];
    const std::uint8_t* d = m.imagej_data.data();
    if (header < 4 || (header - 4) % 8 != 0 || header > m.imagej_data.size()) return drop_all();
    const bool big_endian = std::memcmp(d, "IJIJ", 4) == 0;
    if (!big_endian && std::memcmp(d, "JIJI", 4) != 0) return drop_all();
    Metadata kept = m;
    kept.imagej_counts = {4};
    kept.imagej_data.assign(d, d + 4);
    std::vector<std::uint8_t> items;
    std::size_t item = 1, at = header;
    for (std::uint32_t entry = 4; entry < header; entry += 8) {
        const std::uint32_t count = header_word(d + entry + 4, big_endian);
        if (count > m.imagej_counts.size() - item) return drop_all();
        const bool labels = header_word(d + entry, big_endian) == kLabels;
        if (!labels) {
            kept.imagej_counts[0] += 8;
            kept.imagej_data.insert(kept.imagej_data.end(), d + entry, d + entry + 8);
        }
        for (std::uint32_t i = 0; i < count; ++i, ++item) {
            const std::uint32_t bytes = m.imagej_counts[item];
            if (!labels) {
                kept.imagej_counts.push_back(bytes);
                items.insert(items.end(), d + at, d + at + bytes);
            }
            at += bytes;
        }
    }
    kept.imagej_data.insert(kept.imagej_data.end(), items.begin(), items.end());
    if (kept.imagej_counts.size() == 1) kept.imagej_counts.clear(), kept.imagej_data.clear();
    m = std::move(kept);
}

}  // namespace

Metadata projected_metadata(const Metadata& input, const std::string& axis, std::int64_t planes) {
    Metadata m = input;
    m.description.clear();
    if (input.description.rfind("ImageJ=", 0) == 0) {
        std::istringstream lines(input.description);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind(axis + "=", 0) == 0) continue;
            if (line.rfind("images=", 0) == 0) line = "images=" + std::to_string(planes);
            m.description += line + "\n";
        }
    }
    drop_slice_labels(m);
    return m;
}

Metadata read_metadata(TIFF* tif) {
    Metadata m;
    m.big_endian = TIFFIsBigEndian(tif) != 0;
    if (const char* text = nullptr; TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &text) && text)
        m.description = text;
    float x = 0.0f, y = 0.0f;
    std::uint16_t unit = RESUNIT_INCH;  // TIFF's default
    if (TIFFGetField(tif, TIFFTAG_XRESOLUTION, &x) && TIFFGetField(tif, TIFFTAG_YRESOLUTION, &y)) {
        TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &unit);
        m.has_resolution = true;
        m.x_resolution = x;
        m.y_resolution = y;
        m.resolution_unit = unit;
    }
    const TIFFField* counts = TIFFFindField(tif, kImageJCounts, TIFF_ANY);
    const TIFFField* data = TIFFFindField(tif, kImageJData, TIFF_ANY);
    if (counts == nullptr || data == nullptr || TIFFFieldDataType(counts) != TIFF_LONG ||
        (TIFFFieldDataType(data) != TIFF_BYTE && TIFFFieldDataType(data) != TIFF_UNDEFINED))
        return m;
    std::uint32_t n_counts = 0, n_data = 0;
    const std::uint32_t* count_values = nullptr;
    const std::uint8_t* data_values = nullptr;
    if (!TIFFGetField(tif, kImageJCounts, &n_counts, &count_values) ||
        !TIFFGetField(tif, kImageJData, &n_data, &data_values) || !count_values || !data_values)
        return m;
    const std::uint64_t total =
        std::accumulate(count_values, count_values + n_counts, std::uint64_t{0});
    if (total != n_data) return m;
    m.imagej_counts.assign(count_values, count_values + n_counts);
    m.imagej_data.assign(data_values, data_values + n_data);
    return m;
}

bool set_imagej_tags(TIFF* tif, const Metadata& m) {
    if (m.imagej_counts.empty()) return true;
    return know_imagej_tags(tif) &&
           TIFFSetField(tif, kImageJCounts, static_cast<std::uint32_t>(m.imagej_counts.size()),
                        m.imagej_counts.data()) &&
           TIFFSetField(tif, kImageJData, static_cast<std::uint32_t>(m.imagej_data.size()),
                        m.imagej_data.data());
}

std::string description_for(const std::string& description, PixelType written) {
    if (description.find("<OME") == std::string::npos) return description;
    std::string xml = description;
    for (std::size_t at = xml.find("<Pixels"); at != std::string::npos;
         at = xml.find("<Pixels", at + 1)) {
        if (std::strchr(" \t\r\n", xml[at + 7]) == nullptr) continue;  // not <PixelsSomething
        std::size_t end = xml.find('>', at);
        if (end == std::string::npos) break;
        const char* type = written == PixelType::u8    ? "uint8"
                           : written == PixelType::u16 ? "uint16"
                                                       : "float";
        set_attribute(xml, at, end, "Type", type);
        set_attribute(xml, at, end, "SignificantBits", std::to_string(8 * pixel_size(written)));
    }
    return xml;
}

}  // namespace fastmedian::tiff
