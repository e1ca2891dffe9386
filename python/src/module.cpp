// fastmedian._native: the public C++ API for Python, kept thin. Parameter checks that name the
// Python arguments live in the Python package; this layer maps NumPy arrays to image views
// without copying, releases the GIL while the library runs (answering Ctrl-C during long calls),
// and turns fastmedian::Error into Python exceptions (invalid_argument -> ValueError, the others
// -> fastmedian.Error subclasses).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"

namespace py = pybind11;
namespace fm = fastmedian;

namespace {

// Tags naming the Python exception classes (py::exception wants a distinct C++ type for each).
struct UnsupportedTag {};
struct UnavailableTag {};
struct DeviceErrorTag {};

// By equivalence, not identity: a dtype that crossed a pickle (dask.distributed) is equal to
// NumPy's own float32 dtype but another object.
fm::PixelType pixel_type(const py::array& a, const char* name) {
    if (py::isinstance<py::array_t<std::uint8_t>>(a)) return fm::PixelType::u8;
    if (py::isinstance<py::array_t<std::uint16_t>>(a)) return fm::PixelType::u16;
    if (py::isinstance<py::array_t<float>>(a)) return fm::PixelType::f32;
    throw py::type_error(std::string(name) + " must be uint8, uint16 or float32, got " +
                         py::str(a.dtype()).cast<std::string>());
}

// A (y, x) image or a (planes, y, x) stack whose rows are contiguous; the row and plane strides
// are taken as they are (the library checks them).
template <class View, class Byte>
View image_view(const py::array& a, Byte* data, const char* name) {
    if (a.ndim() != 2 && a.ndim() != 3)
        throw py::value_error(std::string(name) + " must have 2 or 3 dimensions, got " +
                              std::to_string(a.ndim()));
    View v;
    v.type = pixel_type(a, name);
    if (a.strides(a.ndim() - 1) != a.itemsize())
        throw py::value_error(std::string(name) + " must have contiguous rows");
    v.data = data;
    v.width = a.shape(a.ndim() - 1);
    v.height = a.shape(a.ndim() - 2);
    v.row_stride = a.strides(a.ndim() - 2);
    v.planes = a.ndim() == 3 ? a.shape(0) : 1;
    v.plane_stride = a.ndim() == 3 ? a.strides(0) : v.row_stride * v.height;
    return v;
}

// Calls at least this large (output pixels) run on a thread of their own when called from
// Python's main thread, so that Ctrl-C can stop them. The thread costs about 50 us (more where
// the cores are busy: waking this thread waits for one), a tenth of the fastest such call (a
// 1024 x 1024 3x3 median, 0.4 ms on 2 cores); smaller calls end too soon to need stopping.
constexpr std::int64_t kInterruptiblePixels = std::int64_t{1} << 20;
constexpr auto kSignalCheckInterval = std::chrono::milliseconds(30);

bool on_main_thread() {
    const py::module_ threading = py::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

// call() (which must not touch Python objects) with the GIL released. Python runs signal
// handlers only on the main thread and only between bytecodes, so a long call from there runs
// on another thread under a CancelScope while this one checks for signals every 30 ms; when a
// handler raises (KeyboardInterrupt), the call is cancelled, awaited (it writes into the
// caller's arrays) and the handler's exception raised. Calls from other threads (Dask's
// workers) run inline: no signal reaches them.
template <class Call>
fm::RunInfo run_native(const fm::ImageView& out, Call call) {
    if (out.width * out.height * out.planes < kInterruptiblePixels || !on_main_thread()) {
        py::gil_scoped_release no_gil;
        return call();
    }
    std::atomic<bool> stop{false};
    std::packaged_task<fm::RunInfo()> task([&] {
        const fm::CancelScope scope(stop);
        return call();
    });
    std::future<fm::RunInfo> result = task.get_future();
    bool interrupted = false;
    {
        py::gil_scoped_release no_gil;
        std::thread worker;
        try {
            worker = std::thread([&task] { task(); });  // by reference: intact if this throws
        } catch (const std::system_error&) {  // no thread to be had: run it here, uninterruptible
            task();
        }
        while (result.wait_for(kSignalCheckInterval) != std::future_status::ready) {
            const py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) {
                interrupted = true;
                stop = true;
                break;
            }
        }
        if (worker.joinable()) worker.join();
    }
    if (interrupted) throw py::error_already_set();  // the handler's exception, still set
    return result.get();  // or what the call threw
}

// origin: (plane, y, x) of output's first pixel in image's output, for an output box (the
// options' origin); None for all of it.
using BoxOrigin = std::optional<std::array<std::int64_t, 3>>;

std::optional<fm::Origin> origin_of(const BoxOrigin& o) {
    if (!o) return std::nullopt;
    return fm::Origin{(*o)[2], (*o)[1], (*o)[0]};
}

fm::RunInfo median2d(const py::array& src, py::array& dst, const fm::Window& window,
                     const std::string& border, double cval, const std::string& backend,
                     const std::vector<int>& devices, const BoxOrigin& origin) {
    if (!dst.writeable()) throw py::value_error("output must be writable");
    const auto in = image_view<fm::ConstImageView>(
        src, static_cast<const std::uint8_t*>(src.data()), "image");
    const auto out = image_view<fm::ImageView>(
        dst, static_cast<std::uint8_t*>(dst.mutable_data()), "output");
    fm::MedianOptions options;
    options.window = window;
    options.border = fm::parse_border(border, "mode");
    options.cval = cval;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = devices.at(0);
    if (devices.size() > 1) options.devices = devices;
    options.origin = origin_of(origin);
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::median2d(in, out, options); });
}

// The 3D median of the volume image (planes, y, x) into output (same shape and dtype).
fm::RunInfo median3d(const py::array& src, py::array& dst, const fm::Window3D& window,
                     const std::string& border, double cval, const std::string& backend,
                     int device, const BoxOrigin& origin) {
    if (!dst.writeable()) throw py::value_error("output must be writable");
    const auto in = image_view<fm::ConstImageView>(
        src, static_cast<const std::uint8_t*>(src.data()), "image");
    const auto out = image_view<fm::ImageView>(
        dst, static_cast<std::uint8_t*>(dst.mutable_data()), "output");
    fm::Median3DOptions options;
    options.window = window;
    options.border = fm::parse_border(border, "mode");
    options.cval = cval;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = device;
    options.origin = origin_of(origin);
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::median3d(in, out, options); });
}

// A (frames, y, x) stack with contiguous rows, frames outermost (the library checks the strides).
fm::RunInfo temporal_median(const py::array& src, py::array& dst, int window,
                            const std::string& mode, double offset, const std::string& backend,
                            int device) {
    if (src.ndim() != 3)
        throw py::value_error("stack must have 3 dimensions (frames, y, x), got " +
                              std::to_string(src.ndim()));
    if (dst.ndim() != 3)
        throw py::value_error("output must have 3 dimensions (frames, y, x), got " +
                              std::to_string(dst.ndim()));
    if (!dst.writeable()) throw py::value_error("output must be writable");
    const auto in = image_view<fm::ConstImageView>(
        src, static_cast<const std::uint8_t*>(src.data()), "stack");
    const auto out = image_view<fm::ImageView>(
        dst, static_cast<std::uint8_t*>(dst.mutable_data()), "output");
    fm::TemporalOptions options;
    options.window = window;
    options.mode = fm::parse_temporal_mode(mode, "mode");
    options.offset = offset;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = device;
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::temporal_median(in, out, options); });
}

// The background of every plane of image into output (same shape and dtype, rows contiguous).
fm::RunInfo background(const py::array& src, py::array& dst, const fm::Window& window,
                       const std::string& method, const std::string& output, double offset,
                       const std::string& border, double cval, const std::string& backend,
                       const std::vector<int>& devices) {
    if (!dst.writeable()) throw py::value_error("output_array must be writable");
    const auto in = image_view<fm::ConstImageView>(
        src, static_cast<const std::uint8_t*>(src.data()), "image");
    const auto out = image_view<fm::ImageView>(
        dst, static_cast<std::uint8_t*>(dst.mutable_data()), "output_array");
    fm::BackgroundOptions options;
    options.window = window;
    options.method = fm::parse_background_method(method, "method");
    options.output = fm::parse_background_output(output, "output");
    options.offset = offset;
    options.border = fm::parse_border(border, "mode");
    options.cval = cval;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = devices.at(0);
    if (devices.size() > 1) options.devices = devices;
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::background(in, out, options); });
}

// float32 values of a mask given as None (absent) or an array (copied, C order).
std::vector<float> mask_values(const py::object& values, const char* name, int& width,
                               int& height) {
    width = height = 0;
    if (values.is_none()) return {};
    const auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(values);
    if (!a) throw py::type_error(std::string(name) + " must be an array of numbers");
    if (a.ndim() == 2) {
        height = static_cast<int>(a.shape(0));
        width = static_cast<int>(a.shape(1));
    } else if (a.ndim() != 1) {
        throw py::value_error(std::string(name) + " must have 1 or 2 dimensions");
    }
    return std::vector<float>(a.data(), a.data() + a.size());
}

// The convolution of every plane of image into output (same shape, rows contiguous; output's
// dtype the image's or float32): a generic mask (a 2D array, the top row first) or a separable
// pair (row_mask along x, column_mask along y; 1D arrays), the other given as None.
fm::RunInfo convolve(const py::array& src, py::array& dst, const py::object& mask,
                     const py::object& row_mask, const py::object& column_mask, bool normalize,
                     const std::string& border, double cval, const std::string& backend,
                     const std::vector<int>& devices) {
    if (!dst.writeable()) throw py::value_error("output_array must be writable");
    const auto in = image_view<fm::ConstImageView>(
        src, static_cast<const std::uint8_t*>(src.data()), "image");
    const auto out = image_view<fm::ImageView>(
        dst, static_cast<std::uint8_t*>(dst.mutable_data()), "output_array");
    fm::ConvolveOptions options;
    int unused_width = 0, unused_height = 0;
    options.mask = mask_values(mask, "mask", options.mask_width, options.mask_height);
    if (!options.mask.empty() && options.mask_width == 0)
        throw py::value_error("mask must have 2 dimensions (rows, columns)");
    options.row_mask = mask_values(row_mask, "row_mask", unused_width, unused_height);
    options.column_mask = mask_values(column_mask, "column_mask", unused_width, unused_height);
    options.normalize = normalize;
    options.border = fm::parse_border(border, "mode");
    options.cval = cval;
    options.output = out.type == fm::PixelType::f32 ? fm::ConvolveOutput::f32
                                                    : fm::ConvolveOutput::same;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = devices.at(0);
    if (devices.size() > 1) options.devices = devices;
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::convolve(in, out, options); });
}

py::dict device_dict(const fm::DeviceInfo& d) {
    py::dict r;
    r["index"] = d.index;
    r["name"] = d.name;
    r["compute_capability"] = py::make_tuple(d.compute_major, d.compute_minor);
    r["memory_bytes"] = d.memory_bytes;
    return r;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "fastmedian's C++ library (use the fastmedian package, not this module)";

    // fastmedian.Error(RuntimeError) and one subclass per error code that is not a ValueError.
    static py::exception<fm::Error> error(m, "Error", PyExc_RuntimeError);
    static py::exception<UnsupportedTag> unsupported(m, "UnsupportedError", error.ptr());
    static py::exception<UnavailableTag> unavailable(m, "BackendUnavailableError", error.ptr());
    static py::exception<DeviceErrorTag> device_error(m, "DeviceError", error.ptr());
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const fm::Error& e) {
            switch (e.code()) {
                case fm::ErrorCode::invalid_argument:
                    PyErr_SetString(PyExc_ValueError, e.what());
                    return;
                case fm::ErrorCode::unsupported: unsupported(e.what()); return;
                case fm::ErrorCode::backend_unavailable: unavailable(e.what()); return;
                case fm::ErrorCode::device_error: device_error(e.what()); return;
                default: error(e.what()); return;
            }
        }
    });

    py::class_<fm::Window>(m, "Window")
        .def_static("square", &fm::Window::square, py::arg("size"))
        .def_static("circle", &fm::Window::circle, py::arg("radius"))
        .def_readonly("size", &fm::Window::size)
        .def_readonly("radius", &fm::Window::radius);
    m.attr("MAX_SIZE") = fm::Window::kMaxSize;
    m.attr("MAX_RADIUS") = fm::Window::kMaxRadius;
    m.def("window_half_widths", &fm::window_half_widths, py::arg("window"),
          "The window's rows as half widths: row i covers dx in [-h[i], h[i]].");

    py::class_<fm::Window3D>(m, "Window3D")
        .def_static("box", py::overload_cast<int, int, int>(&fm::Window3D::box),
                    py::arg("size_x"), py::arg("size_y"), py::arg("size_z"))
        .def_static("ellipsoid",
                    py::overload_cast<double, double, double>(&fm::Window3D::ellipsoid),
                    py::arg("radius_x"), py::arg("radius_y"), py::arg("radius_z"));
    py::class_<fm::WindowRuns3D>(m, "WindowRuns3D")
        .def_readonly("radius_z", &fm::WindowRuns3D::radius_z)
        .def_readonly("radius_y", &fm::WindowRuns3D::radius_y)
        .def_readonly("radius_x", &fm::WindowRuns3D::radius_x)
        .def_readonly("count", &fm::WindowRuns3D::count);
    m.attr("MAX_SIZE_3D") = fm::Window3D::kMaxSize;
    m.attr("MAX_RADIUS_3D") = fm::Window3D::kMaxRadius;
    m.def("window3d_runs", &fm::window3d_runs, py::arg("window"),
          "The 3D window's reach (radius_z, radius_y, radius_x) and voxel count; raises "
          "ValueError for an invalid window.");

    py::class_<fm::RunInfo>(m, "RunInfo")
        .def_property_readonly("backend",
                               [](const fm::RunInfo& r) { return fm::backend_name(r.backend); })
        .def_readonly("device", &fm::RunInfo::device)
        .def_readonly("device_name", &fm::RunInfo::device_name)
        .def("__repr__", [](const fm::RunInfo& r) {
            return std::string("RunInfo(backend='") + fm::backend_name(r.backend) +
                   "', device=" + std::to_string(r.device) + ", device_name='" + r.device_name +
                   "')";
        });

    m.def("median2d", &median2d, py::arg("image"), py::arg("output"), py::arg("window"),
          py::arg("mode"), py::arg("cval"), py::arg("backend"), py::arg("devices"),
          py::arg("origin") = py::none(),
          "Median of every plane of image into output (same shape and dtype, rows contiguous), "
          "the planes spread over the CUDA devices listed; with origin (plane, y, x), output is "
          "the box of the result from there (its own shape).");
    m.def("median3d", &median3d, py::arg("image"), py::arg("output"), py::arg("window"),
          py::arg("mode"), py::arg("cval"), py::arg("backend"), py::arg("device"),
          py::arg("origin") = py::none(),
          "3D median of the volume image (planes, y, x) into output (same shape and dtype, rows "
          "contiguous); with origin (plane, y, x), output is the box of the result from there.");
    m.def("temporal_median", &temporal_median, py::arg("stack"), py::arg("output"),
          py::arg("window"), py::arg("mode"), py::arg("offset"), py::arg("backend"),
          py::arg("device"),
          "Temporal median over the frames (planes) of stack into output (same shape and dtype, "
          "rows contiguous, frames outermost).");
    m.attr("MAX_WINDOW") = fm::TemporalOptions::kMaxWindow;
    m.def("background", &background, py::arg("image"), py::arg("output_array"),
          py::arg("window"), py::arg("method"), py::arg("output"), py::arg("offset"),
          py::arg("mode"), py::arg("cval"), py::arg("backend"), py::arg("devices"),
          "The large-window median background of every plane of image, subtracted (output "
          "'subtract') or itself ('background'), into output_array (same shape and dtype, rows "
          "contiguous).");
    m.def("convolve", &convolve, py::arg("image"), py::arg("output_array"), py::arg("mask"),
          py::arg("row_mask"), py::arg("column_mask"), py::arg("normalize"), py::arg("mode"),
          py::arg("cval"), py::arg("backend"), py::arg("devices"),
          "True convolution (as scipy.ndimage.convolve) of every plane of image into "
          "output_array (same shape, rows contiguous; the image's dtype or float32) with a "
          "generic mask (2D, the top row first) or a separable pair (row_mask along x, "
          "column_mask along y), the other None.");
    m.def("gaussian_mask", [](double sigma) {
              const std::vector<float> mask = fm::gaussian_mask(sigma);
              return py::array_t<float>(static_cast<py::ssize_t>(mask.size()), mask.data());
          }, py::arg("sigma"),
          "scipy.ndimage.gaussian_filter's 1D mask for sigma (truncate 4.0), as float32.");
    m.attr("MAX_CONVOLVE_MASK_SIZE") = fm::ConvolveOptions::kMaxMaskSize;
    m.attr("MAX_SEPARABLE_LENGTH") = fm::ConvolveOptions::kMaxSeparableLength;
    m.attr("MAX_GAUSSIAN_SIGMA") = fm::kMaxGaussianSigma;
    m.def("cuda_compiled", &fm::cuda_compiled);
    m.def("cuda_devices", [] {
        py::list r;
        for (const fm::DeviceInfo& d : fm::cuda_devices()) r.append(device_dict(d));
        return r;
    });
    m.def("cuda_unavailable_reason", &fm::cuda_unavailable_reason);
    m.attr("__version__") = fm::version();
}
