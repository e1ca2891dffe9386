// fastmedian._native: the public C++ API for Python, kept thin. Parameter checks that name the
// Python arguments live in the Python package; this layer maps NumPy arrays and arrays on a GPU
// (__cuda_array_interface__) to image views without copying, releases the GIL while the library runs (answering Ctrl-C during long calls),
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

// An array the library reads or writes in place: a NumPy array (host memory), or an object
// with __cuda_array_interface__ (CuPy, PyTorch, Numba, fastmedian's own views of them: device
// memory). The Python object stays alive in the caller.
struct ArrayRef {
    void* data = nullptr;
    bool writable = false;
    fm::PixelType type = fm::PixelType::u8;
    std::vector<py::ssize_t> shape, strides;  // strides in bytes
    fm::Memory memory = fm::Memory::host;
    // The interface's stream, where the work is enqueued, ordered after the array's producer
    // (cudaStreamLegacy is 1, cudaStreamPerThread 2, as the interface numbers them); nullptr
    // where none is named: the library then waits for its own work.
    void* stream = nullptr;
};

[[noreturn]] void wrong_type(const char* name, const std::string& got) {
    throw py::type_error(std::string(name) + " must be uint8, uint16 or float32, got " + got);
}

// By equivalence, not identity: a dtype that crossed a pickle (dask.distributed) is equal to
// NumPy's own float32 dtype but another object.
fm::PixelType pixel_type(const py::array& a, const char* name) {
    if (py::isinstance<py::array_t<std::uint8_t>>(a)) return fm::PixelType::u8;
    if (py::isinstance<py::array_t<std::uint16_t>>(a)) return fm::PixelType::u16;
    if (py::isinstance<py::array_t<float>>(a)) return fm::PixelType::f32;
    wrong_type(name, py::str(a.dtype()).cast<std::string>());
}

// The interface's typestr: byte order ('<' little, '|' not applicable), kind, size.
fm::PixelType pixel_type(const std::string& typestr, const char* name) {
    if (typestr == "|u1" || typestr == "<u1") return fm::PixelType::u8;
    if (typestr == "<u2") return fm::PixelType::u16;
    if (typestr == "<f4") return fm::PixelType::f32;
    wrong_type(name, "typestr '" + typestr + "'");
}

ArrayRef cuda_array_ref(const py::object& object, const char* name) {
    const py::dict cai = object.attr("__cuda_array_interface__");
    ArrayRef r;
    r.memory = fm::Memory::cuda;
    r.type = pixel_type(cai["typestr"].cast<std::string>(), name);
    for (const py::handle n : cai["shape"]) r.shape.push_back(n.cast<py::ssize_t>());
    const auto data = cai["data"].cast<py::tuple>();
    r.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
    r.writable = !data[1].cast<bool>();
    if (cai.contains("mask") && !cai["mask"].is_none())
        throw py::value_error(std::string(name) + " must not be a masked array");
    if (!cai.contains("strides") || cai["strides"].is_none()) {  // C-contiguous
        r.strides.assign(r.shape.size(), static_cast<py::ssize_t>(fm::pixel_size(r.type)));
        for (std::size_t i = r.shape.size(); i-- > 1;) r.strides[i - 1] = r.strides[i] * r.shape[i];
    } else {
        for (const py::handle n : cai["strides"]) r.strides.push_back(n.cast<py::ssize_t>());
    }
    if (cai.contains("stream") && !cai["stream"].is_none())
        r.stream = reinterpret_cast<void*>(cai["stream"].cast<std::uintptr_t>());
    return r;
}

ArrayRef array_ref(const py::object& object, const char* name) {
    if (!py::isinstance<py::array>(object)) {
        if (py::hasattr(object, "__cuda_array_interface__")) return cuda_array_ref(object, name);
        throw py::type_error(std::string(name) + " must be a NumPy array or have "
                             "__cuda_array_interface__");
    }
    const auto a = py::reinterpret_borrow<py::array>(object);
    ArrayRef r;
    r.type = pixel_type(a, name);
    r.data = const_cast<void*>(a.data());
    r.writable = a.writeable();
    r.shape.assign(a.shape(), a.shape() + a.ndim());
    r.strides.assign(a.strides(), a.strides() + a.ndim());
    return r;
}

// A (y, x) image or a (planes, y, x) stack whose rows are contiguous; the row and plane strides
// are taken as they are (the library checks them).
template <class View>
View image_view(const ArrayRef& a, const char* name) {
    const auto ndim = a.shape.size();
    if (ndim != 2 && ndim != 3)
        throw py::value_error(std::string(name) + " must have 2 or 3 dimensions, got " +
                              std::to_string(ndim));
    View v;
    v.type = a.type;
    v.memory = a.memory;
    if (a.strides[ndim - 1] != static_cast<py::ssize_t>(fm::pixel_size(a.type)))
        throw py::value_error(std::string(name) + " must have contiguous rows");
    v.data = static_cast<decltype(v.data)>(a.data);
    v.width = a.shape[ndim - 1];
    v.height = a.shape[ndim - 2];
    v.row_stride = a.strides[ndim - 2];
    v.planes = ndim == 3 ? a.shape[0] : 1;
    v.plane_stride = ndim == 3 ? a.strides[0] : v.row_stride * v.height;
    return v;
}

// The source and destination views of a call, from `src` and `dst` (named src_name and
// dst_name in errors), and the stream the source's interface names.
struct Views {
    fm::ConstImageView in;
    fm::ImageView out;
    void* stream = nullptr;
};

Views views(const py::object& src, const py::object& dst, const char* src_name,
            const char* dst_name) {
    const ArrayRef in = array_ref(src, src_name), out = array_ref(dst, dst_name);
    if (!out.writable) throw py::value_error(std::string(dst_name) + " must be writable");
    if (in.memory != out.memory)
        throw py::value_error(std::string(src_name) + " and " + dst_name +
                              " must both be on a GPU or both in host memory");
    return {image_view<fm::ConstImageView>(in, src_name), image_view<fm::ImageView>(out, dst_name),
            in.stream};
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

fm::RunInfo median2d(const py::object& src, const py::object& dst, const fm::Window& window,
                     const std::string& border, double cval, const std::string& backend,
                     const std::vector<int>& devices, const BoxOrigin& origin) {
    const Views v = views(src, dst, "image", "output");
    const fm::ConstImageView& in = v.in;
    const fm::ImageView& out = v.out;
    fm::MedianOptions options;
    options.cuda_stream = v.stream;
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
fm::RunInfo median3d(const py::object& src, const py::object& dst, const fm::Window3D& window,
                     const std::string& border, double cval, const std::string& backend,
                     int device, const BoxOrigin& origin) {
    const Views v = views(src, dst, "image", "output");
    const fm::ConstImageView& in = v.in;
    const fm::ImageView& out = v.out;
    fm::Median3DOptions options;
    options.cuda_stream = v.stream;
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
fm::RunInfo temporal_median(const py::object& src, const py::object& dst, int window,
                            const std::string& mode, double offset, const std::string& backend,
                            int device) {
    for (const auto& [a, name] : {std::pair{&src, "stack"}, std::pair{&dst, "output"}}) {
        const auto ndim = py::len(a->attr("shape"));
        if (ndim != 3)
            throw py::value_error(std::string(name) + " must have 3 dimensions (frames, y, x), "
                                  "got " + std::to_string(ndim));
    }
    const Views v = views(src, dst, "stack", "output");
    const fm::ConstImageView& in = v.in;
    const fm::ImageView& out = v.out;
    fm::TemporalOptions options;
    options.cuda_stream = v.stream;
    options.window = window;
    options.mode = fm::parse_temporal_mode(mode, "mode");
    options.offset = offset;
    options.backend = fm::parse_backend(backend, "backend");
    options.device = device;
    // The arrays stay alive: the caller holds them.
    return run_native(out, [&] { return fm::temporal_median(in, out, options); });
}

// The background of every plane of image into output (same shape and dtype, rows contiguous).
fm::RunInfo background(const py::object& src, const py::object& dst, const fm::Window& window,
                       const std::string& method, const std::string& output, double offset,
                       const std::string& border, double cval, const std::string& backend,
                       const std::vector<int>& devices) {
    const Views v = views(src, dst, "image", "output_array");
    const fm::ConstImageView& in = v.in;
    const fm::ImageView& out = v.out;
    fm::BackgroundOptions options;
    options.cuda_stream = v.stream;
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
fm::RunInfo convolve(const py::object& src, const py::object& dst, const py::object& mask,
                     const py::object& row_mask, const py::object& column_mask, bool normalize,
                     const std::string& border, double cval, const std::string& backend,
                     const std::vector<int>& devices) {
    const Views v = views(src, dst, "image", "output_array");
    const fm::ConstImageView& in = v.in;
    const fm::ImageView& out = v.out;
    fm::ConvolveOptions options;
    options.cuda_stream = v.stream;
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
    r["policy"] = d.policy;
    r["unsupported"] = d.unsupported;
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
