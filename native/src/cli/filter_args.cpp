#include "filter_args.hpp"

#include <cmath>

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
        for (const DeviceInfo& d : cuda_devices()) devices.push_back(d.index);
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

std::string describe(const Window& window, Border border, double cval) {
    std::string s = window.shape == Window::Shape::square
                        ? std::to_string(window.size) + "x" + std::to_string(window.size)
                        : "radius " + format_number("%g", window.radius);
    s += std::string(" ") + border_name(border);
    if (border == Border::constant) s += " " + format_number("%g", cval);
    return s;
}

}  // namespace fastmedian::cli
