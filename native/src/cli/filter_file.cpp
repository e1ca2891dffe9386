#include "filter_file.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "args.hpp"
#include "filter_args.hpp"
#include "output_file.hpp"
#include "tiff_io.hpp"

namespace fastmedian::cli {

std::string format_number(const char* format, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

FilterResult filter_file(const std::string& in, const std::string& out, const StackFilter& f) {
    // By identity, not by name: "./a.tif", a hard link or a symlink to the input all count.
    std::error_code ec;
    if (std::filesystem::equivalent(in, out, ec))
        throw UsageError("output " + out + " is the same file as input " + in +
                         "; refusing to overwrite the input");
    // Before the input is read and filtered: a bad output path is found at once, not after a
    // long run.
    tiff::check_output(out);
    const tiff::Stack src = tiff::read_tiff(in);
    if (f.check) f.check(src.type, src.width, src.height, src.planes);
    const PixelType out_type = f.float_output ? PixelType::f32 : src.type;
    tiff::Stack dst(out_type, src.width, src.height, src.planes);
    FilterResult r;
    r.type = src.type;
    r.width = src.width;
    r.height = src.height;
    r.planes = src.planes;
    if (f.backend != Backend::cpu) {
        // A process's first CUDA call creates the context (about 0.2 s); a one-pixel run of
        // the same filter pays for it, so filter_ms is the filter's own time.
        tiff::Stack one(src.type, 1, 1, f.warmup_planes);
        tiff::Stack one_out(out_type, 1, 1, f.warmup_planes);
        const auto start = Clock::now();
        if (f.run(one.view(), one_out.mutable_view()).backend == Backend::cuda)
            r.startup_ms = ms_since(start);
    }
    const auto start = Clock::now();
    r.run = f.run(src.view(), dst.mutable_view());
    r.filter_ms = ms_since(start);
    tiff::write_tiff(out, dst.view());
    return r;
}

FilterResult filter_file(const std::string& in, const std::string& out, const MedianOptions& o) {
    StackFilter f;
    f.backend = o.backend;
    f.check = [&o](PixelType type, std::int64_t, std::int64_t, std::int64_t) {
        check_cval(o.border, o.cval, type);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst) {
        return median2d(src, dst, o);
    };
    return filter_file(in, out, f);
}

FilterResult filter_file(const std::string& in, const std::string& out, const Median3DOptions& o) {
    StackFilter f;
    f.backend = o.backend;
    f.check = [&o](PixelType type, std::int64_t, std::int64_t, std::int64_t) {
        check_cval(o.border, o.cval, type);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst) {
        return median3d(src, dst, o);
    };
    return filter_file(in, out, f);
}

std::string summary(const Median3DOptions& o, const FilterResult& r, const std::string& out) {
    const Window3D& w = o.window;
    std::string what = w.shape == Window3D::Shape::box
                           ? std::to_string(w.size_x) + "x" + std::to_string(w.size_y) + "x" +
                                 std::to_string(w.size_z)
                           : "ellipsoid " + format_number("%g", w.radius_x) + "," +
                                 format_number("%g", w.radius_y) + "," + format_number("%g", w.radius_z);
    what += std::string(" ") + border_name(o.border);
    if (o.border == Border::constant) what += " " + format_number("%g", o.cval);
    return summary("median " + what, r, out);
}

std::string summary(const MedianOptions& o, const FilterResult& r, const std::string& out) {
    return summary("median " + describe(o.window, o.border, o.cval), r, out);
}

std::string summary(const std::string& what, const FilterResult& r, const std::string& out) {
    std::string s = what;
    s += std::string(" on ") + backend_name(r.run.backend);
    if (r.run.backend == Backend::cuda)
        for (std::size_t i = 0; i < r.run.devices.size(); ++i)
            s += (i == 0 ? ":" : ",") + std::to_string(r.run.devices[i]);
    s += " (" + r.run.device_name + "): " + std::to_string(r.width) + "x" +
         std::to_string(r.height) + "x" + std::to_string(r.planes) + " " +
         pixel_type_name(r.type) + " in " + format_number("%.1f", r.filter_ms) + " ms";
    if (r.startup_ms > 0.0)
        s += " (+ " + format_number("%.1f", r.startup_ms) + " ms CUDA start-up)";
    s += " -> " + out;
    return s;
}

}  // namespace fastmedian::cli
