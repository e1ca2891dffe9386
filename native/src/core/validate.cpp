#include "core/validate.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include "fastmedian/errors.hpp"
#include "semantics/footprint3d.hpp"

namespace fastmedian::detail {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw Error(ErrorCode::invalid_argument, message);
}

template <class V>
std::string describe(const V& value) {
    std::ostringstream s;
    s << value;
    return s.str();
}

bool valid_type(PixelType t) {
    return t == PixelType::u8 || t == PixelType::u16 || t == PixelType::f32;
}

// The bytes [first, last) a view may touch.
struct ByteRange {
    std::uintptr_t first, last;
};

ByteRange extent(const ConstImageView& v) {
    const auto first = reinterpret_cast<std::uintptr_t>(v.data);
    const std::int64_t row_bytes = v.width * static_cast<std::int64_t>(pixel_size(v.type));
    const std::int64_t span =
        (v.planes - 1) * v.plane_stride + (v.height - 1) * v.row_stride + row_bytes;
    return {first, first + static_cast<std::uintptr_t>(span)};
}

}  // namespace

void validate_view(const ConstImageView& v, const char* name) {
    const std::string n(name);
    if (!valid_type(v.type)) fail(n + ".type is not one of u8, u16, f32");
    if (v.memory != Memory::host && v.memory != Memory::cuda) fail(n + ".memory is not host or cuda");
    if (v.data == nullptr) fail(n + ".data is null");
    if (v.width < 1) fail(n + ".width must be at least 1, got " + describe(v.width));
    if (v.height < 1) fail(n + ".height must be at least 1, got " + describe(v.height));
    if (v.planes < 1) fail(n + ".planes must be at least 1, got " + describe(v.planes));
    const auto px = static_cast<std::int64_t>(pixel_size(v.type));
    if (v.width > (std::int64_t{1} << 31) || v.height > (std::int64_t{1} << 31))
        fail(n + ".width and " + n + ".height must be below 2^31");
    if (v.row_stride < v.width * px)
        fail(n + ".row_stride (" + describe(v.row_stride) + " bytes) is shorter than a row of " +
             describe(v.width) + " " + pixel_type_name(v.type) + " pixels");
    if (v.row_stride % px != 0 || v.plane_stride % px != 0 ||
        reinterpret_cast<std::uintptr_t>(v.data) % px != 0)
        fail(n + ".data, row_stride and plane_stride must be multiples of the pixel size (" +
             describe(px) + " bytes)");
    if (v.planes > 1 && v.plane_stride < v.row_stride * v.height)
        fail(n + ".plane_stride (" + describe(v.plane_stride) +
             " bytes) is shorter than a plane of " + describe(v.height) + " rows");
}

void validate_window(const Window& w) {
    if (w.shape == Window::Shape::square) {
        if (w.size < 1 || w.size % 2 == 0 || w.size > Window::kMaxSize)
            fail("window.size must be odd and in 1.." + describe(Window::kMaxSize) + ", got " +
                 describe(w.size));
    } else if (w.shape == Window::Shape::circle) {
        if (!std::isfinite(w.radius) || w.radius < 0.0 || w.radius > Window::kMaxRadius)
            fail("window.radius must be finite and in 0.." + describe(Window::kMaxRadius) +
                 ", got " + describe(w.radius));
    } else {
        fail("window.shape is not square or circle");
    }
}

namespace {

std::string size_of(const ConstImageView& v) {
    return describe(v.width) + "x" + describe(v.height) + "x" + describe(v.planes);
}

// src and dst valid views of the same type and memory that do not overlap, dst's size checked
// by `check_size` in between.
template <class CheckSize>
void validate_views(const ConstImageView& src, const ImageView& dst, CheckSize check_size) {
    validate_view(src, "src");
    if (dst.type != src.type)
        fail(std::string("dst.type (") + pixel_type_name(dst.type) + ") differs from src.type (" +
             pixel_type_name(src.type) + ")");
    check_size();
    validate_view(as_const(dst), "dst");
    const ByteRange a = extent(src), b = extent(as_const(dst));
    if (a.first < b.last && b.first < a.last) fail("dst overlaps src; filtering in place is not supported");
    if (dst.memory != src.memory) fail("dst.memory differs from src.memory");
}

}  // namespace

void validate_pair(const ConstImageView& src, const ImageView& dst) {
    validate_views(src, dst, [&] {
        if (dst.width != src.width || dst.height != src.height || dst.planes != src.planes)
            fail("dst size " + size_of(as_const(dst)) + " differs from src size " + size_of(src));
    });
}

void validate_region(const ConstImageView& src, const ImageView& dst, const Origin& origin) {
    validate_views(src, dst, [&] {
        const std::pair<const char*, std::int64_t> offsets[] = {
            {"origin.x", origin.x}, {"origin.y", origin.y}, {"origin.plane", origin.plane}};
        for (const auto& [name, offset] : offsets)
            if (offset < 0) fail(std::string(name) + " must be at least 0, got " + describe(offset));
        // (Written so that no sum can overflow: the offsets are at least 0, src's sizes small.)
        if (dst.width > src.width - origin.x || dst.height > src.height - origin.y ||
            dst.planes > src.planes - origin.plane)
            fail("dst size " + size_of(as_const(dst)) + " at origin (" + describe(origin.x) + ", " +
                 describe(origin.y) + ", " + describe(origin.plane) + ") reaches past src size " +
                 size_of(src));
    });
}

void validate_devices(const std::vector<int>& devices) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (devices[i] < 0) fail("devices must be CUDA device indices (at least 0), got " + describe(devices[i]));
        for (std::size_t j = 0; j < i; ++j)
            if (devices[j] == devices[i]) fail("devices lists device " + describe(devices[i]) + " twice");
    }
}

void validate_run(Backend backend, int device, const void* cuda_stream, bool reference,
                  Memory memory) {
    switch (backend) {
        case Backend::automatic: case Backend::cpu: case Backend::cuda: break;
        default: fail("backend is not one of auto, cpu, cuda");
    }
    if (device < 0) fail("device must be at least 0, got " + describe(device));
    if (memory == Memory::cuda && backend == Backend::cpu)
        fail("backend cpu cannot filter views in Memory::cuda (src.memory); use auto or cuda");
    if (memory == Memory::host && cuda_stream != nullptr)
        fail("cuda_stream applies only to views in Memory::cuda");
    if (memory == Memory::cuda && reference)
        fail("reference (the CPU reference) needs views in host memory, not src.memory cuda");
}

namespace {

void validate_border(Border border, double cval, PixelType type) {
    switch (border) {
        case Border::replicate: case Border::reflect: case Border::mirror:
        case Border::constant: case Border::wrap: break;
        default: fail("border is not one of replicate, reflect, mirror, constant, wrap");
    }
    if (border == Border::constant && type != PixelType::f32 && !std::isfinite(cval))
        fail("cval must be finite for integer images, got " + describe(cval));
}

}  // namespace

void validate_median(const ConstImageView& src, const ImageView& dst, const MedianOptions& o) {
    if (o.origin) validate_region(src, dst, *o.origin);
    else validate_pair(src, dst);
    validate_window(o.window);
    validate_border(o.border, o.cval, src.type);
    validate_run(o.backend, o.device, o.cuda_stream, o.reference, src.memory);
    validate_devices(o.devices);
}

void validate_window3d(const Window3D& w) {
    if (w.shape == Window3D::Shape::box) {
        const std::pair<const char*, int> sides[] = {
            {"window.size_x", w.size_x}, {"window.size_y", w.size_y}, {"window.size_z", w.size_z}};
        for (const auto& [name, k] : sides)
            if (k < 1 || k % 2 == 0 || k > Window3D::kMaxSize)
                fail(std::string(name) + " must be odd and in 1.." + describe(Window3D::kMaxSize) +
                     ", got " + describe(k));
    } else if (w.shape == Window3D::Shape::ellipsoid) {
        const std::pair<const char*, double> radii[] = {
            {"window.radius_x", w.radius_x}, {"window.radius_y", w.radius_y},
            {"window.radius_z", w.radius_z}};
        for (const auto& [name, r] : radii)
            if (!std::isfinite(r) || r < 0.0 || r > Window3D::kMaxRadius)
                fail(std::string(name) + " must be finite and in 0.." +
                     describe(Window3D::kMaxRadius) + ", got " + describe(r));
    } else {
        fail("window.shape is not box or ellipsoid");
    }
    const std::int64_t count = make_footprint3d(w).count;
    if (count > Window3D::kMaxCount)
        fail("window has " + describe(count) + " voxels, more than the " +
             describe(Window3D::kMaxCount) + " allowed");
}

void validate_median3d(const ConstImageView& src, const ImageView& dst, const Median3DOptions& o) {
    if (o.origin) validate_region(src, dst, *o.origin);
    else validate_pair(src, dst);
    validate_window3d(o.window);
    validate_border(o.border, o.cval, src.type);
    validate_run(o.backend, o.device, o.cuda_stream, o.reference, src.memory);
}

void validate_temporal_options(const TemporalOptions& o, std::int64_t frames) {
    if (o.window < 1 || o.window > TemporalOptions::kMaxWindow)
        fail("window must be in 1.." + describe(TemporalOptions::kMaxWindow) + " frames, got " +
             describe(o.window));
    if (o.window > frames)
        fail("window (" + describe(o.window) + " frames) is longer than the stack (src.planes = " +
             describe(frames) + ")");
    if (o.mode != TemporalMode::median && o.mode != TemporalMode::subtract)
        fail("mode is not one of median, subtract");
    if (!std::isfinite(o.offset) || std::fabs(o.offset) > 1e9)
        fail("offset must be finite and within +-1e9, got " + describe(o.offset));
}

void validate_temporal(const ConstImageView& src, const ImageView& dst, const TemporalOptions& o) {
    validate_pair(src, dst);
    validate_temporal_options(o, src.planes);
    validate_run(o.backend, o.device, o.cuda_stream, o.reference, src.memory);
}

}  // namespace fastmedian::detail
