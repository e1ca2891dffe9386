// The JNI bridge behind org.fastmedian.Natives: Java arrays in, Java exceptions out.
//
// Every entry point runs its body inside `guarded`, which turns any C++ exception into an
// org.fastmedian.FastMedianException (code name + message), so none crosses into the JVM.
// Pixels: every call filters the Java arrays themselves, held as JNI critical sections, so
// that no copy of the stack is made (on the CPU the copies cost more than the filter). A call
// on a GPU holds them for the whole call, whose staging buffers the arrays feed directly; a
// call on the CPU, which may run for long, in pieces of a few million pixels (planes, or bands
// of rows), each held for its piece alone, so that the garbage collector waits for one piece
// at most. The input array is never written; after a failure the output may hold part of
// the results.
// A Java TemporalMedianStream holds a JavaStream* as a jlong handle, from temporalStreamCreate
// to temporalStreamClose; the Java class serialises the calls and never passes a freed handle.
#include <jni.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "fastmedian/temporal.hpp"

namespace fm = fastmedian;

namespace {

// Thrown after a JNI call left a Java exception pending: unwind and let that one through.
struct JavaPending {};

void check_java(JNIEnv* env) {
    if (env->ExceptionCheck()) throw JavaPending{};
}

[[noreturn]] void fail(const std::string& message) {
    throw fm::Error(fm::ErrorCode::invalid_argument, message);
}

// NewStringUTF takes modified UTF-8; bytes outside ASCII become '?' so that no message, whatever
// it holds, can hand the JVM a malformed string.
jstring java_string(JNIEnv* env, const std::string& s) {
    std::string ascii(s);
    for (char& c : ascii)
        if (static_cast<unsigned char>(c) >= 0x80) c = '?';
    jstring result = env->NewStringUTF(ascii.c_str());
    check_java(env);
    return result;
}

// Raises org.fastmedian.FastMedianException(code, message) unless a Java exception is already
// pending. Never throws: if building the exception fails, the JVM's own error stays pending.
void throw_java(JNIEnv* env, const char* code, const char* message) noexcept {
    if (env->ExceptionCheck()) return;
    try {
        jclass cls = env->FindClass("org/fastmedian/FastMedianException");
        check_java(env);
        jmethodID ctor =
            env->GetMethodID(cls, "<init>", "(Ljava/lang/String;Ljava/lang/String;)V");
        check_java(env);
        jobject e = env->NewObject(cls, ctor, java_string(env, code), java_string(env, message));
        check_java(env);
        env->Throw(static_cast<jthrowable>(e));
    } catch (...) {
        if (!env->ExceptionCheck()) {
            jclass error = env->FindClass("java/lang/OutOfMemoryError");
            if (error != nullptr) env->ThrowNew(error, "fastmedian: could not raise an exception");
        }
    }
}

// Runs `body`, mapping every C++ exception to a Java one; returns `on_error` after a failure.
template <class R, class F>
R guarded(JNIEnv* env, R on_error, F&& body) noexcept {
    try {
        return body();
    } catch (const JavaPending&) {
    } catch (const fm::Error& e) {
        throw_java(env, fm::error_code_name(e.code()), e.what());
    } catch (const std::bad_alloc&) {
        throw_java(env, "out_of_memory", "fastmedian: out of native memory");
    } catch (const std::exception& e) {
        throw_java(env, "internal_error", e.what());
    } catch (...) {
        throw_java(env, "internal_error", "fastmedian: unknown C++ exception");
    }
    return on_error;
}

std::string utf8(JNIEnv* env, jstring s, const char* parameter) {
    if (s == nullptr) fail(std::string(parameter) + " is null");
    const jsize bytes = env->GetStringUTFLength(s);
    std::string out(static_cast<std::size_t>(bytes) + 1, '\0');  // room for the JVM's NUL
    env->GetStringUTFRegion(s, 0, env->GetStringLength(s), out.data());
    check_java(env);
    out.resize(static_cast<std::size_t>(bytes));
    return out;
}

// Checks the arrays against the image size.
void check_lengths(JNIEnv* env, jarray src, jarray dst, jint width, jint height, jint planes) {
    if (src == nullptr) fail("src is null");
    if (dst == nullptr) fail("dst is null");
    if (env->IsSameObject(src, dst))
        fail("dst is the same array as src; filtering in place is not supported");
    const std::pair<const char*, jint> dims[] = {{"width", width}, {"height", height},
                                                 {"planes", planes}};
    for (const auto& [name, value] : dims)
        if (value < 1) fail(std::string(name) + " must be at least 1, got " + std::to_string(value));
    // Each factor is below 2^31, so width * height fits 64 bits; a Java array holds fewer than
    // 2^31 elements, so a product past that can match no array (and times planes could wrap).
    const std::int64_t limit = std::numeric_limits<jsize>::max();
    const std::int64_t area = std::int64_t{width} * height;
    if (area > limit || area * planes > limit)
        fail("width*height*planes (" + std::to_string(width) + " x " + std::to_string(height) +
             " x " + std::to_string(planes) + ") exceeds the " + std::to_string(limit) +
             " elements a Java array can hold");
    const std::int64_t n = area * planes;
    const std::pair<const char*, jarray> arrays[] = {{"src", src}, {"dst", dst}};
    for (const auto& [name, array] : arrays) {
        const jsize length = env->GetArrayLength(array);
        if (length != n)
            fail(std::string(name) + " has " + std::to_string(length) +
                 " elements but width*height*planes is " + std::to_string(n) + " (" +
                 std::to_string(width) + " x " + std::to_string(height) + " x " +
                 std::to_string(planes) + ")");
    }
}

// The CUDA devices of a call: the first is `device`; more than one spread the planes (devices).
void set_devices(JNIEnv* env, jintArray list, int& device, std::vector<int>& devices) {
    if (list == nullptr) fail("options.devices is null");
    std::vector<int> v(static_cast<std::size_t>(env->GetArrayLength(list)));
    if (v.empty()) fail("options.devices is empty");
    env->GetIntArrayRegion(list, 0, static_cast<jsize>(v.size()), reinterpret_cast<jint*>(v.data()));
    check_java(env);
    device = v.front();
    if (v.size() > 1) devices = v;
}

fm::MedianOptions median_options(JNIEnv* env, jboolean circle, jint size, jdouble radius,
                                 jstring border, jdouble cval, jstring backend, jintArray devices) {
    fm::MedianOptions o;
    o.window = circle ? fm::Window::circle(radius) : fm::Window::square(size);
    o.border = fm::parse_border(utf8(env, border, "options.border"), "options.border");
    o.cval = cval;
    o.backend = fm::parse_backend(utf8(env, backend, "options.backend"), "options.backend");
    set_devices(env, devices, o.device, o.devices);
    return o;
}

jobject run_info(JNIEnv* env, const fm::RunInfo& info) {
    jclass cls = env->FindClass("org/fastmedian/RunInfo");
    check_java(env);
    jmethodID ctor = env->GetMethodID(cls, "<init>", "(Ljava/lang/String;ILjava/lang/String;)V");
    check_java(env);
    jobject result = env->NewObject(cls, ctor, java_string(env, fm::backend_name(info.backend)),
                                    static_cast<jint>(info.device),
                                    java_string(env, info.device_name));
    check_java(env);
    return result;
}

// Java's signed arrays hold the unsigned pixels' bit patterns; copying keeps the bits.
void read(JNIEnv* env, jbyteArray a, jsize n, std::uint8_t* p) {
    env->GetByteArrayRegion(a, 0, n, reinterpret_cast<jbyte*>(p));
}
void read(JNIEnv* env, jshortArray a, jsize n, std::uint16_t* p) {
    env->GetShortArrayRegion(a, 0, n, reinterpret_cast<jshort*>(p));
}
void read(JNIEnv* env, jfloatArray a, jsize n, float* p) {
    env->GetFloatArrayRegion(a, 0, n, p);
}
void write(JNIEnv* env, jbyteArray a, jsize n, const std::uint8_t* p) {
    env->SetByteArrayRegion(a, 0, n, reinterpret_cast<const jbyte*>(p));
}
void write(JNIEnv* env, jshortArray a, jsize n, const std::uint16_t* p) {
    env->SetShortArrayRegion(a, 0, n, reinterpret_cast<const jshort*>(p));
}
void write(JNIEnv* env, jfloatArray a, jsize n, const float* p) {
    env->SetFloatArrayRegion(a, 0, n, p);
}

// Whether a call runs on a GPU, as the library's dispatch decides (backend automatic: the
// device if it exists), or FASTMEDIAN_JNI_ARRAYS=critical asks for its way on the CPU (tests).
bool whole_call(fm::Backend backend, int device) {
    const char* mode = std::getenv("FASTMEDIAN_JNI_ARRAYS");
    if (mode != nullptr && std::strcmp(mode, "critical") == 0) return true;
    return backend != fm::Backend::cpu && device < static_cast<int>(fm::cuda_devices().size());
}

// How a call splits into pieces that filter alone: planes (filters of each plane), planes of
// the output that read all of the volume (the 3D median, through its origin), or bands of rows
// of every plane (the temporal median, whose windows run through the planes).
enum class Pieces { planes, volume_planes, row_bands };

// A piece: the output's planes z0..z1-1 and rows y0..y1-1.
struct Piece {
    std::int64_t z0, z1, y0, y1;
};

// Pixels a piece holds at most: at least a plane (a band: a row of every plane) each.
// FASTMEDIAN_JNI_PIECE_PIXELS sets it for tests, and then the pieces of a volume too are no
// larger (forced).
std::int64_t piece_pixels(bool& forced) {
    if (const char* text = std::getenv("FASTMEDIAN_JNI_PIECE_PIXELS")) {
        const long long n = std::atoll(text);
        forced = n > 0;
        if (forced) return n;
    }
    return std::int64_t{1} << 22;
}

// `depth`: for Pieces::volume_planes, the window's depth in planes. A piece of the volume holds
// at least 4 times that many (unless forced), so that the planes around it, which its windows
// read again, cost at most about half as much again: the CPU's box kernels reuse their work
// along z, and pieces of one 2048x2048 plane took box 3 twice as long.
std::vector<Piece> pieces_of(Pieces kind, std::int64_t width, std::int64_t height, std::int64_t planes,
                             std::int64_t depth) {
    bool forced = false;
    const std::int64_t most = piece_pixels(forced);
    std::vector<Piece> out;
    if (kind == Pieces::row_bands) {
        const std::int64_t rows = std::max<std::int64_t>(1, most / (width * planes));
        for (std::int64_t y = 0; y < height; y += rows) out.push_back({0, planes, y, std::min(height, y + rows)});
    } else {
        std::int64_t step = std::max<std::int64_t>(1, most / (width * height));
        if (kind == Pieces::volume_planes && !forced) step = std::max(step, 4 * depth);
        for (std::int64_t z = 0; z < planes; z += step) out.push_back({z, std::min(planes, z + step), 0, height});
    }
    return out;
}

// The planes and rows of a piece of a view.
template <class View>
View piece_view(View v, const Piece& p) {
    v.data += p.z0 * v.plane_stride + p.y0 * v.row_stride;
    v.planes = p.z1 - p.z0;
    v.height = p.y1 - p.y0;
    return v;
}

// src as In and dst as Out, held as JNI critical sections while this lives: no JNI call may
// come in between, so the options are read before and the RunInfo made after. The output's
// pixels are written in place; src is released without writing back.
template <class In, class Out>
class Critical {
public:
    Critical(JNIEnv* env, jarray src, jarray dst) : env_(env), src_(src), dst_(dst) {
        in_ = static_cast<const In*>(env->GetPrimitiveArrayCritical(src, nullptr));
        if (in_ != nullptr) out_ = static_cast<Out*>(env->GetPrimitiveArrayCritical(dst, nullptr));
        if (out_ == nullptr) {
            release();
            check_java(env);
            throw std::bad_alloc();
        }
    }
    ~Critical() { release(); }
    Critical(const Critical&) = delete;
    Critical& operator=(const Critical&) = delete;
    const In* in() const { return in_; }
    Out* out() const { return out_; }

private:
    void release() {
        if (out_ != nullptr) env_->ReleasePrimitiveArrayCritical(dst_, out_, 0);
        if (in_ != nullptr) env_->ReleasePrimitiveArrayCritical(src_, const_cast<In*>(in_), JNI_ABORT);
        in_ = nullptr;
        out_ = nullptr;
    }

    JNIEnv* env_;
    jarray src_, dst_;
    const In* in_ = nullptr;
    Out* out_ = nullptr;
};

// Filters src into dst: run(in, out, origin) -> RunInfo, where origin is the output box's
// (std::nullopt: all of the output) for Pieces::volume_planes, and in and out otherwise cover
// the same pixels. All at once on a GPU, else piece by piece (depth: pieces_of's).
template <class In, class Out, class Run>
jobject filtered(JNIEnv* env, jarray src, jarray dst, fm::Backend backend, int device, jint width,
                 jint height, jint planes, Pieces kind, Run run, std::int64_t depth = 1) {
    fm::RunInfo info;
    const std::vector<Piece> pieces = whole_call(backend, device)
                                          ? std::vector<Piece>{{0, planes, 0, height}}
                                          : pieces_of(kind, width, height, planes, depth);
    for (const Piece& p : pieces) {
        Critical<In, Out> arrays(env, src, dst);
        const fm::ConstImageView in = fm::view(arrays.in(), width, height, planes);
        const fm::ImageView out = piece_view(fm::view(arrays.out(), width, height, planes), p);
        if (kind == Pieces::volume_planes)
            info = run(in, out, p.z0 == 0 && p.z1 == planes ? std::nullopt : std::optional<fm::Origin>({0, 0, p.z0}));
        else
            info = run(piece_view(in, p), out, std::nullopt);
    }
    return run_info(env, info);
}

template <class T, class JArray>
jobject median(JNIEnv* env, JArray src, JArray dst, jint width, jint height, jint planes,
               jboolean circle, jint size, jdouble radius, jstring border, jdouble cval,
               jstring backend, jintArray devices) {
    return guarded<jobject>(env, nullptr, [&]() -> jobject {
        check_lengths(env, src, dst, width, height, planes);
        const fm::MedianOptions options =
            median_options(env, circle, size, radius, border, cval, backend, devices);
        return filtered<T, T>(env, src, dst, options.backend, options.device, width, height, planes,
                              Pieces::planes, [&](const fm::ConstImageView& in, const fm::ImageView& out, auto) {
                                  return fm::median2d(in, out, options);
                              });
    });
}

fm::Median3DOptions median3d_options(JNIEnv* env, jboolean ellipsoid, jint size_x, jint size_y,
                                     jint size_z, jdouble radius_x, jdouble radius_y,
                                     jdouble radius_z, jstring border, jdouble cval,
                                     jstring backend, jint device) {
    fm::Median3DOptions o;
    o.window = ellipsoid ? fm::Window3D::ellipsoid(radius_x, radius_y, radius_z)
                         : fm::Window3D::box(size_x, size_y, size_z);
    o.border = fm::parse_border(utf8(env, border, "options.border"), "options.border");
    o.cval = cval;
    o.backend = fm::parse_backend(utf8(env, backend, "options.backend"), "options.backend");
    o.device = device;
    return o;
}

// The planes are the volume's z slices.
template <class T, class JArray>
jobject median3d(JNIEnv* env, JArray src, JArray dst, jint width, jint height, jint planes,
                 jboolean ellipsoid, jint size_x, jint size_y, jint size_z, jdouble radius_x,
                 jdouble radius_y, jdouble radius_z, jstring border, jdouble cval,
                 jstring backend, jint device) {
    return guarded<jobject>(env, nullptr, [&]() -> jobject {
        check_lengths(env, src, dst, width, height, planes);
        fm::Median3DOptions options =
            median3d_options(env, ellipsoid, size_x, size_y, size_z, radius_x, radius_y,
                             radius_z, border, cval, backend, device);
        return filtered<T, T>(env, src, dst, options.backend, options.device, width, height, planes,
                              Pieces::volume_planes,
                              [&](const fm::ConstImageView& in, const fm::ImageView& out,
                                  const std::optional<fm::Origin>& origin) {
                                  options.origin = origin;
                                  return fm::median3d(in, out, options);
                              },
                              ellipsoid ? 2 * static_cast<std::int64_t>(radius_z) + 1 : size_z);
    });
}

fm::TemporalOptions temporal_options(JNIEnv* env, jint window, jstring mode, jdouble offset,
                                     jstring backend, jint device) {
    fm::TemporalOptions o;
    o.window = window;
    o.mode = fm::parse_temporal_mode(utf8(env, mode, "options.mode"), "options.mode");
    o.offset = offset;
    o.backend = fm::parse_backend(utf8(env, backend, "options.backend"), "options.backend");
    o.device = device;
    return o;
}

template <class T, class JArray>
jobject temporal(JNIEnv* env, JArray src, JArray dst, jint width, jint height, jint planes,
                 jint window, jstring mode, jdouble offset, jstring backend, jint device) {
    return guarded<jobject>(env, nullptr, [&]() -> jobject {
        check_lengths(env, src, dst, width, height, planes);
        const fm::TemporalOptions options =
            temporal_options(env, window, mode, offset, backend, device);
        return filtered<T, T>(env, src, dst, options.backend, options.device, width, height, planes,
                              Pieces::row_bands, [&](const fm::ConstImageView& in, const fm::ImageView& out, auto) {
                                  return fm::temporal_median(in, out, options);
                              });
    });
}

fm::BackgroundOptions background_options(JNIEnv* env, jboolean circle, jint size, jdouble radius,
                                         jstring method, jstring output, jdouble offset,
                                         jstring border, jdouble cval, jstring backend,
                                         jintArray devices) {
    fm::BackgroundOptions o;
    o.window = circle ? fm::Window::circle(radius) : fm::Window::square(size);
    o.method = fm::parse_background_method(utf8(env, method, "options.method"), "options.method");
    o.output = fm::parse_background_output(utf8(env, output, "options.output"), "options.output");
    o.offset = offset;
    o.border = fm::parse_border(utf8(env, border, "options.border"), "options.border");
    o.cval = cval;
    o.backend = fm::parse_backend(utf8(env, backend, "options.backend"), "options.backend");
    set_devices(env, devices, o.device, o.devices);
    return o;
}

template <class T, class JArray>
jobject background(JNIEnv* env, JArray src, JArray dst, jint width, jint height, jint planes,
                   jboolean circle, jint size, jdouble radius, jstring method, jstring output,
                   jdouble offset, jstring border, jdouble cval, jstring backend, jintArray devices) {
    return guarded<jobject>(env, nullptr, [&]() -> jobject {
        check_lengths(env, src, dst, width, height, planes);
        const fm::BackgroundOptions options = background_options(
            env, circle, size, radius, method, output, offset, border, cval, backend, devices);
        return filtered<T, T>(env, src, dst, options.backend, options.device, width, height, planes,
                              Pieces::planes, [&](const fm::ConstImageView& in, const fm::ImageView& out, auto) {
                                  return fm::background(in, out, options);
                              });
    });
}

// What a Java TemporalMedianStream's handle points to: the library's stream, the frame shape
// it takes, and one frame buffer each way, reused by every push.
struct JavaStream {
    JavaStream(fm::PixelType type, jint width, jint height, const fm::TemporalOptions& options)
        : stream(type, width, height, options),
          type(type),
          width(width),
          height(height),
          in(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
             fm::pixel_size(type)),
          out(in.size()) {}

    fm::TemporalMedianStream stream;
    fm::PixelType type;
    jint width, height;
    std::vector<std::uint8_t> in, out;
};

JavaStream* java_stream(jlong handle) {
    if (handle == 0) fail("the stream is closed");
    return reinterpret_cast<JavaStream*>(static_cast<std::intptr_t>(handle));
}

int bit_depth(fm::PixelType type) {
    return type == fm::PixelType::u8 ? 8 : type == fm::PixelType::u16 ? 16 : 32;
}

jlong stream_create(JNIEnv* env, jint bits, jint width, jint height, jint window, jstring mode,
                    jdouble offset, jstring backend, jint device) {
    fm::PixelType type;
    switch (bits) {
        case 8: type = fm::PixelType::u8; break;
        case 16: type = fm::PixelType::u16; break;
        case 32: type = fm::PixelType::f32; break;
        default: fail("bitDepth must be 8, 16 or 32, got " + std::to_string(bits));
    }
    const std::pair<const char*, jint> dims[] = {{"width", width}, {"height", height}};
    for (const auto& [name, value] : dims)
        if (value < 1) fail(std::string(name) + " must be at least 1, got " + std::to_string(value));
    const std::int64_t n = std::int64_t{width} * height;
    if (n > INT32_MAX)
        fail("width*height is " + std::to_string(n) + ", more than a Java array holds");
    const fm::TemporalOptions options =
        temporal_options(env, window, mode, offset, backend, device);
    auto* s = new JavaStream(type, width, height, options);
    return static_cast<jlong>(reinterpret_cast<std::intptr_t>(s));
}

template <class T, class JArray>
void stream_push(JNIEnv* env, jlong handle, JArray frame, JArray out) {
    guarded<int>(env, 0, [&] {
        JavaStream& s = *java_stream(handle);
        if (s.type != fm::PixelTypeOf<T>::value)
            fail("frame is " + std::to_string(bit_depth(fm::PixelTypeOf<T>::value)) +
                 "-bit but the stream takes " + std::to_string(bit_depth(s.type)) +
                 "-bit frames");
        const jsize n = s.width * s.height;
        const std::pair<const char*, JArray> arrays[] = {{"frame", frame}, {"out", out}};
        for (const auto& [name, array] : arrays) {
            if (array == nullptr) fail(std::string(name) + " is null");
            const jsize length = env->GetArrayLength(array);
            if (length != n)
                fail(std::string(name) + " has " + std::to_string(length) +
                     " elements but width*height is " + std::to_string(n) + " (" +
                     std::to_string(s.width) + " x " + std::to_string(s.height) + ")");
        }
        T* in = reinterpret_cast<T*>(s.in.data());
        T* result = reinterpret_cast<T*>(s.out.data());
        read(env, frame, n, in);
        check_java(env);
        const T* pixels = in;
        s.stream.push(fm::view(pixels, s.width, s.height), fm::view(result, s.width, s.height));
        write(env, out, n, result);
        check_java(env);
        return 0;
    });
}

// A Java float[] as a vector (empty for null; callers that need one say so).
std::vector<float> floats(JNIEnv* env, jfloatArray a) {
    if (a == nullptr) return {};
    std::vector<float> v(static_cast<std::size_t>(env->GetArrayLength(a)));
    env->GetFloatArrayRegion(a, 0, static_cast<jsize>(v.size()), v.data());
    check_java(env);
    return v;
}

// ConvolveOptions from the Java class's fields. kind: 0 generic mask, 1 separable, 2 Gaussian.
fm::ConvolveOptions convolve_options(JNIEnv* env, jint kind, jfloatArray mask, jint mask_width,
                                     jint mask_height, jfloatArray row, jfloatArray column,
                                     jdouble sigma, jboolean normalize, jstring border,
                                     jdouble cval, jstring backend, jintArray devices) {
    fm::ConvolveOptions o;
    switch (kind) {
        case 0:
            if (mask == nullptr) fail("options.mask is null");
            o = fm::ConvolveOptions::generic(floats(env, mask), mask_width, mask_height);
            break;
        case 1:
            if (row == nullptr) fail("options.rowMask is null");
            if (column == nullptr) fail("options.columnMask is null");
            o = fm::ConvolveOptions::separable(floats(env, row), floats(env, column));
            break;
        case 2: o = fm::ConvolveOptions::gaussian(sigma); break;
        default: fail("options: unknown mask kind " + std::to_string(kind));
    }
    o.normalize = normalize == JNI_TRUE;
    o.border = fm::parse_border(utf8(env, border, "options.border"), "options.border");
    o.cval = cval;
    o.backend = fm::parse_backend(utf8(env, backend, "options.backend"), "options.backend");
    set_devices(env, devices, o.device, o.devices);
    return o;
}

// src is a T array; dst a T array (output in the input's type) or a float[] (float output).
template <class T, class JArray>
jobject convolve(JNIEnv* env, JArray src, jobject dst, jint width, jint height, jint planes,
                 jint kind, jfloatArray mask, jint mask_width, jint mask_height, jfloatArray row,
                 jfloatArray column, jdouble sigma, jboolean normalize, jstring border,
                 jdouble cval, jstring backend, jintArray devices) {
    return guarded<jobject>(env, nullptr, [&]() -> jobject {
        const char* same = std::is_same_v<T, std::uint8_t> ? "[B" : std::is_same_v<T, std::uint16_t> ? "[S" : "[F";
        jclass same_class = env->FindClass(same);
        check_java(env);
        jclass float_class = env->FindClass("[F");
        check_java(env);
        const bool to_float = dst != nullptr && !std::is_same_v<T, float> &&
                              env->IsInstanceOf(dst, float_class) == JNI_TRUE;
        if (dst != nullptr && !to_float && env->IsInstanceOf(dst, same_class) != JNI_TRUE)
            fail(std::string("dst must be a ") + (std::is_same_v<T, float> ? "float[]" : std::is_same_v<T, std::uint8_t> ? "byte[] or float[]" : "short[] or float[]"));
        check_lengths(env, src, static_cast<jarray>(dst), width, height, planes);
        fm::ConvolveOptions options = convolve_options(env, kind, mask, mask_width, mask_height, row,
                                                       column, sigma, normalize, border, cval,
                                                       backend, devices);
        options.output = to_float ? fm::ConvolveOutput::f32 : fm::ConvolveOutput::same;
        const auto run = [&](const fm::ConstImageView& in, const fm::ImageView& out, auto) {
            return fm::convolve(in, out, options);
        };
        const auto out = static_cast<jarray>(dst);
        if (to_float)
            return filtered<T, float>(env, src, out, options.backend, options.device, width, height, planes,
                                      Pieces::planes, run);
        return filtered<T, T>(env, src, out, options.backend, options.device, width, height, planes, Pieces::planes,
                              run);
    });
}

jobjectArray cuda_devices(JNIEnv* env) {
    const std::vector<fm::DeviceInfo> devices = fm::cuda_devices();
    jclass cls = env->FindClass("org/fastmedian/DeviceInfo");
    check_java(env);
    jmethodID ctor =
        env->GetMethodID(cls, "<init>", "(ILjava/lang/String;IIJLjava/lang/String;Ljava/lang/String;)V");
    check_java(env);
    jobjectArray result = env->NewObjectArray(static_cast<jsize>(devices.size()), cls, nullptr);
    check_java(env);
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const fm::DeviceInfo& d = devices[i];
        jstring name = java_string(env, d.name);
        jstring policy = java_string(env, d.policy);
        jstring unsupported = java_string(env, d.unsupported);
        jobject info = env->NewObject(cls, ctor, static_cast<jint>(d.index), name,
                                      static_cast<jint>(d.compute_major),
                                      static_cast<jint>(d.compute_minor),
                                      static_cast<jlong>(d.memory_bytes), policy, unsupported);
        check_java(env);
        env->SetObjectArrayElement(result, static_cast<jsize>(i), info);
        env->DeleteLocalRef(info);
        env->DeleteLocalRef(unsupported);
        env->DeleteLocalRef(policy);
        env->DeleteLocalRef(name);
    }
    return result;
}

}  // namespace

extern "C" {

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_medianU8(
    JNIEnv* env, jclass, jbyteArray src, jbyteArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring border, jdouble cval, jstring backend,
    jintArray devices) {
    return median<std::uint8_t>(env, src, dst, width, height, planes, circle, size, radius,
                                border, cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_medianU16(
    JNIEnv* env, jclass, jshortArray src, jshortArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring border, jdouble cval, jstring backend,
    jintArray devices) {
    return median<std::uint16_t>(env, src, dst, width, height, planes, circle, size, radius,
                                 border, cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_medianF32(
    JNIEnv* env, jclass, jfloatArray src, jfloatArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring border, jdouble cval, jstring backend,
    jintArray devices) {
    return median<float>(env, src, dst, width, height, planes, circle, size, radius, border,
                         cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_median3dU8(
    JNIEnv* env, jclass, jbyteArray src, jbyteArray dst, jint width, jint height, jint planes,
    jboolean ellipsoid, jint size_x, jint size_y, jint size_z, jdouble radius_x,
    jdouble radius_y, jdouble radius_z, jstring border, jdouble cval, jstring backend,
    jint device) {
    return median3d<std::uint8_t>(env, src, dst, width, height, planes, ellipsoid, size_x, size_y,
                                  size_z, radius_x, radius_y, radius_z, border, cval, backend,
                                  device);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_median3dU16(
    JNIEnv* env, jclass, jshortArray src, jshortArray dst, jint width, jint height, jint planes,
    jboolean ellipsoid, jint size_x, jint size_y, jint size_z, jdouble radius_x,
    jdouble radius_y, jdouble radius_z, jstring border, jdouble cval, jstring backend,
    jint device) {
    return median3d<std::uint16_t>(env, src, dst, width, height, planes, ellipsoid, size_x, size_y,
                                   size_z, radius_x, radius_y, radius_z, border, cval, backend,
                                   device);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_median3dF32(
    JNIEnv* env, jclass, jfloatArray src, jfloatArray dst, jint width, jint height, jint planes,
    jboolean ellipsoid, jint size_x, jint size_y, jint size_z, jdouble radius_x,
    jdouble radius_y, jdouble radius_z, jstring border, jdouble cval, jstring backend,
    jint device) {
    return median3d<float>(env, src, dst, width, height, planes, ellipsoid, size_x, size_y, size_z,
                           radius_x, radius_y, radius_z, border, cval, backend, device);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_temporalU8(
    JNIEnv* env, jclass, jbyteArray src, jbyteArray dst, jint width, jint height, jint planes,
    jint window, jstring mode, jdouble offset, jstring backend, jint device) {
    return temporal<std::uint8_t>(env, src, dst, width, height, planes, window, mode, offset,
                                  backend, device);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_temporalU16(
    JNIEnv* env, jclass, jshortArray src, jshortArray dst, jint width, jint height, jint planes,
    jint window, jstring mode, jdouble offset, jstring backend, jint device) {
    return temporal<std::uint16_t>(env, src, dst, width, height, planes, window, mode, offset,
                                   backend, device);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_temporalF32(
    JNIEnv* env, jclass, jfloatArray src, jfloatArray dst, jint width, jint height, jint planes,
    jint window, jstring mode, jdouble offset, jstring backend, jint device) {
    return temporal<float>(env, src, dst, width, height, planes, window, mode, offset, backend,
                           device);
}

JNIEXPORT jlong JNICALL Java_org_fastmedian_Natives_temporalStreamCreate(
    JNIEnv* env, jclass, jint bits, jint width, jint height, jint window, jstring mode,
    jdouble offset, jstring backend, jint device) {
    return guarded<jlong>(env, 0, [&] {
        return stream_create(env, bits, width, height, window, mode, offset, backend, device);
    });
}

JNIEXPORT void JNICALL Java_org_fastmedian_Natives_temporalStreamPushU8(
    JNIEnv* env, jclass, jlong handle, jbyteArray frame, jbyteArray out) {
    stream_push<std::uint8_t>(env, handle, frame, out);
}

JNIEXPORT void JNICALL Java_org_fastmedian_Natives_temporalStreamPushU16(
    JNIEnv* env, jclass, jlong handle, jshortArray frame, jshortArray out) {
    stream_push<std::uint16_t>(env, handle, frame, out);
}

JNIEXPORT void JNICALL Java_org_fastmedian_Natives_temporalStreamPushF32(
    JNIEnv* env, jclass, jlong handle, jfloatArray frame, jfloatArray out) {
    stream_push<float>(env, handle, frame, out);
}

JNIEXPORT jlong JNICALL Java_org_fastmedian_Natives_temporalStreamFramesPushed(JNIEnv* env,
                                                                              jclass,
                                                                              jlong handle) {
    return guarded<jlong>(env, 0, [&] {
        return static_cast<jlong>(java_stream(handle)->stream.frames_pushed());
    });
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_temporalStreamRunInfo(JNIEnv* env, jclass,
                                                                           jlong handle) {
    return guarded<jobject>(env, nullptr,
                            [&] { return run_info(env, java_stream(handle)->stream.run_info()); });
}

JNIEXPORT void JNICALL Java_org_fastmedian_Natives_temporalStreamClose(JNIEnv*, jclass,
                                                                      jlong handle) {
    delete reinterpret_cast<JavaStream*>(static_cast<std::intptr_t>(handle));
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_backgroundU8(
    JNIEnv* env, jclass, jbyteArray src, jbyteArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring method, jstring output, jdouble offset,
    jstring border, jdouble cval, jstring backend, jintArray devices) {
    return background<std::uint8_t>(env, src, dst, width, height, planes, circle, size, radius,
                                    method, output, offset, border, cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_backgroundU16(
    JNIEnv* env, jclass, jshortArray src, jshortArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring method, jstring output, jdouble offset,
    jstring border, jdouble cval, jstring backend, jintArray devices) {
    return background<std::uint16_t>(env, src, dst, width, height, planes, circle, size, radius,
                                     method, output, offset, border, cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_backgroundF32(
    JNIEnv* env, jclass, jfloatArray src, jfloatArray dst, jint width, jint height, jint planes,
    jboolean circle, jint size, jdouble radius, jstring method, jstring output, jdouble offset,
    jstring border, jdouble cval, jstring backend, jintArray devices) {
    return background<float>(env, src, dst, width, height, planes, circle, size, radius, method,
                             output, offset, border, cval, backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_convolveU8(
    JNIEnv* env, jclass, jbyteArray src, jobject dst, jint width, jint height, jint planes,
    jint kind, jfloatArray mask, jint mask_width, jint mask_height, jfloatArray row,
    jfloatArray column, jdouble sigma, jboolean normalize, jstring border, jdouble cval,
    jstring backend, jintArray devices) {
    return convolve<std::uint8_t>(env, src, dst, width, height, planes, kind, mask, mask_width,
                                  mask_height, row, column, sigma, normalize, border, cval,
                                  backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_convolveU16(
    JNIEnv* env, jclass, jshortArray src, jobject dst, jint width, jint height, jint planes,
    jint kind, jfloatArray mask, jint mask_width, jint mask_height, jfloatArray row,
    jfloatArray column, jdouble sigma, jboolean normalize, jstring border, jdouble cval,
    jstring backend, jintArray devices) {
    return convolve<std::uint16_t>(env, src, dst, width, height, planes, kind, mask, mask_width,
                                   mask_height, row, column, sigma, normalize, border, cval,
                                   backend, devices);
}

JNIEXPORT jobject JNICALL Java_org_fastmedian_Natives_convolveF32(
    JNIEnv* env, jclass, jfloatArray src, jobject dst, jint width, jint height, jint planes,
    jint kind, jfloatArray mask, jint mask_width, jint mask_height, jfloatArray row,
    jfloatArray column, jdouble sigma, jboolean normalize, jstring border, jdouble cval,
    jstring backend, jintArray devices) {
    return convolve<float>(env, src, dst, width, height, planes, kind, mask, mask_width,
                           mask_height, row, column, sigma, normalize, border, cval, backend,
                           devices);
}

JNIEXPORT jfloatArray JNICALL Java_org_fastmedian_Natives_gaussianMask(JNIEnv* env, jclass,
                                                                      jdouble sigma) {
    return guarded<jfloatArray>(env, nullptr, [&]() -> jfloatArray {
        const std::vector<float> m = fm::gaussian_mask(sigma);
        jfloatArray a = env->NewFloatArray(static_cast<jsize>(m.size()));
        check_java(env);
        env->SetFloatArrayRegion(a, 0, static_cast<jsize>(m.size()), m.data());
        check_java(env);
        return a;
    });
}

JNIEXPORT jstring JNICALL Java_org_fastmedian_Natives_version(JNIEnv* env, jclass) {
    return guarded<jstring>(env, nullptr, [&] { return java_string(env, fm::version()); });
}

JNIEXPORT jboolean JNICALL Java_org_fastmedian_Natives_cudaCompiled(JNIEnv*, jclass) {
    return fm::cuda_compiled() ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jobjectArray JNICALL Java_org_fastmedian_Natives_cudaDevices(JNIEnv* env, jclass) {
    return guarded<jobjectArray>(env, nullptr, [&] { return cuda_devices(env); });
}

JNIEXPORT jstring JNICALL Java_org_fastmedian_Natives_cudaUnavailableReason(JNIEnv* env,
                                                                             jclass) {
    return guarded<jstring>(env, nullptr,
                            [&] { return java_string(env, fm::cuda_unavailable_reason()); });
}

}  // extern "C"
