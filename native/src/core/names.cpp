// Names of enum values, and parsing of the names users type (CLI, Java, Python).
#include <string>

#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"
#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian {

const char* error_code_name(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::invalid_argument: return "invalid_argument";
        case ErrorCode::unsupported: return "unsupported";
        case ErrorCode::backend_unavailable: return "backend_unavailable";
        case ErrorCode::device_error: return "device_error";
        case ErrorCode::io_error: return "io_error";
        case ErrorCode::cancelled: return "cancelled";
    }
    return "unknown";
}

std::size_t pixel_size(PixelType type) noexcept {
    switch (type) {
        case PixelType::u8: return 1;
        case PixelType::u16: return 2;
        case PixelType::f32: return 4;
    }
    return 0;
}

const char* pixel_type_name(PixelType type) noexcept {
    switch (type) {
        case PixelType::u8: return "u8";
        case PixelType::u16: return "u16";
        case PixelType::f32: return "f32";
    }
    return "unknown";
}

const char* border_name(Border border) noexcept {
    switch (border) {
        case Border::replicate: return "replicate";
        case Border::reflect: return "reflect";
        case Border::mirror: return "mirror";
        case Border::constant: return "constant";
        case Border::wrap: return "wrap";
    }
    return "unknown";
}

Border parse_border(const std::string& name, const char* parameter) {
    if (name == "replicate" || name == "nearest") return Border::replicate;
    if (name == "reflect") return Border::reflect;
    if (name == "mirror") return Border::mirror;
    if (name == "constant") return Border::constant;
    if (name == "wrap") return Border::wrap;
    throw Error(ErrorCode::invalid_argument,
                std::string(parameter) + " must be one of replicate (nearest), reflect, mirror, "
                "constant, wrap; got '" + name + "'");
}

const char* backend_name(Backend backend) noexcept {
    switch (backend) {
        case Backend::automatic: return "auto";
        case Backend::cpu: return "cpu";
        case Backend::cuda: return "cuda";
    }
    return "unknown";
}

Backend parse_backend(const std::string& name, const char* parameter) {
    if (name == "auto") return Backend::automatic;
    if (name == "cpu") return Backend::cpu;
    if (name == "cuda") return Backend::cuda;
    throw Error(ErrorCode::invalid_argument,
                std::string(parameter) + " must be one of auto, cpu, cuda; got '" + name + "'");
}

const char* version() noexcept { return FASTMEDIAN_VERSION; }

}  // namespace fastmedian
