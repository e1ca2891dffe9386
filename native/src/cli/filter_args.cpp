#include "filter_args.hpp"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "filter_file.hpp"

namespace fastmedian::cli {

Window parse_window(const Args& a, const std::string& command) {
    const std::string* size = a.get("--size");
    const std::string* radius = a.get("--radius");
    if ((size == nullptr) == (radius == nullptr))
        throw UsageError(command + " needs exactly one of --size K (square) or --radius R (circle)");
    if (size != nullptr) {
        int k = 0;
        if (!parse_int(*size, k) || k < 1 || k % 2 == 0 || k > Window::kMaxSize)
            throw UsageError("--size must be an odd integer from 1 to " +
                             std::to_string(Window::kMaxSize) + ", got " + shown(*size));
        return Window::square(k);
    }
    double r = 0.0;
    if (!parse_double(*radius, r) || !std::isfinite(r) || r < 0.0 || r > Window::kMaxRadius)
        throw UsageError("--radius must be a number from 0 to " +
                         std::to_string(static_cast<int>(Window::kMaxRadius)) + ", got " +
                         shown(*radius));
    return Window::circle(r);
}

void parse_border_and_cval(const Args& a, Border& border, double& cval) {
    if (const std::string* b = a.get("--border")) border = parse_border(*b, "--border");
    if (const std::string* v = a.get("--cval")) {
        if (border != Border::constant)
            throw UsageError("--cval applies only to --border constant");
        if (!parse_double(*v, cval)) throw UsageError("--cval must be a number, got " + shown(*v));
    }
}

void check_cval(Border border, double cval, PixelType type) {
    if (border == Border::constant && type != PixelType::f32 && !std::isfinite(cval))
        throw UsageError(std::string("--cval must be finite for ") + pixel_type_name(type) +
                         " images, got " + format_number("%g", cval));
}

double parse_offset(const std::string& value) {
    double offset = 0.0;
    if (!parse_double(value, offset) || !std::isfinite(offset) || std::fabs(offset) > kMaxOffset)
        throw UsageError("--offset must be a number from -1e9 to 1e9, got " + shown(value));
    return offset;
}

std::vector<int> parse_devices(const std::string& value, Backend backend) {
    // The library takes devices with the CPU backend (and ignores them), so that a program can
    // switch backends alone; typed on a command line, the pair is a mistake worth naming.
    if (backend == Backend::cpu)
        throw UsageError("--devices applies to the CUDA backend, not --backend cpu");
    std::vector<int> devices;
    if (value == "all") {
        for (const DeviceInfo& d : cuda_devices())
            if (d.unsupported.empty()) devices.push_back(d.index);  // `fastmedian info` says why not
        return devices;
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = value.find(',', start);
        const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        int d = 0;
        if (!parse_int(item, d) || d < 0)
            throw UsageError("--devices must be CUDA device indices separated by commas (0,1) or all, got " +
                             shown(value));
        for (const int seen : devices)
            if (seen == d) throw UsageError("--devices lists device " + item + " twice");
        devices.push_back(d);
        if (comma == std::string::npos) return devices;
        start = comma + 1;
    }
}

std::uint64_t parse_max_memory(const Args& a) {
    const std::string* value = a.get("--max-memory");
    if (value == nullptr) {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
        // Unknown here (sysconf failed): no ceiling but what allocation itself finds.
        if (pages <= 0 || page_size <= 0) return std::numeric_limits<std::uint64_t>::max();
        return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
    }
    std::string digits = *value;
    int shift = 0;
    if (!digits.empty()) {
        const std::size_t suffix = std::string("KMG").find(static_cast<char>(std::toupper(
            static_cast<unsigned char>(digits.back()))));
        if (suffix != std::string::npos) {
            shift = 10 * (static_cast<int>(suffix) + 1);
            digits.pop_back();
        }
    }
    std::uint64_t bytes = 0;
    const char* end = digits.data() + digits.size();
    const auto r = std::from_chars(digits.data(), end, bytes);
    if (digits.empty() || r.ec != std::errc() || r.ptr != end || bytes == 0 ||
        bytes > (std::numeric_limits<std::uint64_t>::max() >> shift))
        throw UsageError("--max-memory must be a positive whole number of bytes, or of KiB, MiB "
                         "or GiB with the suffix K, M or G (512M, 8G), got " + shown(*value));
    return bytes << shift;
}

std::string describe(const Window& window, Border border, double cval) {
    std::string s = window.shape == Window::Shape::square
                        ? std::to_string(window.size) + "x" + std::to_string(window.size)
                        : "radius " + format_number("%g", window.radius);
    s += std::string(" ") + border_name(border);
    if (border == Border::constant) s += " " + format_number("%g", cval);
    return s;
}

}  // namespace fastmedian::cli
