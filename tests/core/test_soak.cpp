// Soak: 10,000 random calls of every filter (2D and 3D median, temporal median, background,
// convolution) on the default backend (the GPU where there is one), about a third of them with
// a broken argument. Valid calls give the CPU reference's bits; invalid ones throw fm::Error
// with a message naming a parameter and leave both images untouched. Resident memory may not
// grow by more than 16 MiB between the end of a warm-up and the end (not checked under
// AddressSanitizer, whose quarantine holds freed memory; its leak check runs at exit), nor free
// device memory (CUDA builds on a GPU, the plane pipeline's idle buffers released) fall by more
// than 8 MiB.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <functional>
#include <random>
#include <string>
#include <unistd.h>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"
#ifdef FASTMEDIAN_TEST_DEVICE_MEMORY
#include <cuda_runtime_api.h>

#include "cuda/plane_pipeline.hpp"
#endif

namespace fm = fastmedian;
using fmtest::Stack;

namespace {

constexpr int kCalls = 10000;
constexpr int kWarmUp = 1000;

// AddressSanitizer keeps freed memory in quarantine, so resident memory grows by design there;
// LeakSanitizer checks for leaks at exit instead.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

long resident_bytes() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

// Free device memory, the plane pipeline's cached buffers released; -1 without a GPU.
long long free_device_bytes() {
#ifdef FASTMEDIAN_TEST_DEVICE_MEMORY
    if (!fm::cuda_unavailable_reason().empty()) return -1;
    fastmedian::detail::release_idle_pipeline_contexts();
    std::size_t free = 0, total = 0;
    return cudaMemGetInfo(&free, &total) == cudaSuccess ? static_cast<long long>(free) : -1;
#else
    return -1;
#endif
}

// One filter call: run(src, dst, reference) calls the filter with its options.
using Call = std::function<void(const fm::ConstImageView&, const fm::ImageView&, bool)>;

struct Case {
    Call call;
    std::string what;
};

Case random_median(std::mt19937& rng, bool valid, int planes) {
    (void)planes;
    fm::MedianOptions o;
    o.window = rng() % 2 ? fm::Window::square(1 + 2 * static_cast<int>(rng() % 11))
                         : fm::Window::circle(0.5 * (1 + rng() % 16));
    o.border = fmtest::kAllBorders[rng() % 5];
    o.cval = static_cast<double>(rng() % 300);
    std::string what = "median";
    if (!valid) {
        switch (rng() % 3) {
            case 0: o.window = fm::Window::square(2 * static_cast<int>(rng() % 5)); what += " even size"; break;
            case 1: o.window = fm::Window::circle(-1.0 - rng() % 3); what += " negative radius"; break;
            default: o.window = fm::Window::circle(std::nan("")); what += " NaN radius"; break;
        }
    }
    return {[o](const fm::ConstImageView& s, const fm::ImageView& d, bool ref) {
                fm::MedianOptions r = o;
                r.reference = ref;
                fm::median2d(s, d, r);
            },
            what};
}

Case random_median3d(std::mt19937& rng, bool valid, int planes) {
    (void)planes;
    fm::Median3DOptions o;
    o.window = rng() % 2 ? fm::Window3D::box(1 + 2 * static_cast<int>(rng() % 3),
                                             1 + 2 * static_cast<int>(rng() % 3),
                                             1 + 2 * static_cast<int>(rng() % 3))
                         : fm::Window3D::ellipsoid(0.5 * (rng() % 6), 0.5 * (rng() % 6),
                                                   0.5 * (rng() % 5));
    o.border = fmtest::kAllBorders[rng() % 5];
    o.cval = static_cast<double>(rng() % 300);
    std::string what = "median3d";
    if (!valid) {
        switch (rng() % 3) {
            case 0: o.window = fm::Window3D::box(3, 3, 2 * static_cast<int>(rng() % 5)); what += " even size_z"; break;
            case 1: o.window = fm::Window3D::ellipsoid(1, -1.0 - rng() % 3, 1); what += " negative radius_y"; break;
            default: o.window = fm::Window3D::ellipsoid(std::nan(""), 1, 1); what += " NaN radius_x"; break;
        }
    }
    return {[o](const fm::ConstImageView& s, const fm::ImageView& d, bool ref) {
                fm::Median3DOptions r = o;
                r.reference = ref;
                fm::median3d(s, d, r);
            },
            what};
}

Case random_temporal(std::mt19937& rng, bool valid, int planes) {
    fm::TemporalOptions o;
    o.window = 1 + static_cast<int>(rng() % planes);
    o.mode = rng() % 2 ? fm::TemporalMode::median : fm::TemporalMode::subtract;
    o.offset = static_cast<double>(rng() % 200);
    std::string what = "temporal";
    if (!valid) {
        switch (rng() % 3) {
            case 0: o.window = 0; what += " window 0"; break;
            case 1: o.window = planes + 1; what += " window above the frames"; break;
            default: o.offset = std::nan(""); what += " NaN offset"; break;
        }
    }
    return {[o](const fm::ConstImageView& s, const fm::ImageView& d, bool ref) {
                fm::TemporalOptions r = o;
                r.reference = ref;
                fm::temporal_median(s, d, r);
            },
            what};
}

Case random_background(std::mt19937& rng, bool valid, int planes) {
    (void)planes;
    fm::BackgroundOptions o;
    o.method = rng() % 2 ? fm::BackgroundMethod::exact : fm::BackgroundMethod::separable;
    o.window = o.method == fm::BackgroundMethod::separable || rng() % 2
                   ? fm::Window::square(1 + 2 * static_cast<int>(rng() % 16))
                   : fm::Window::circle(0.5 * (1 + rng() % 30));
    o.output = rng() % 2 ? fm::BackgroundOutput::subtract : fm::BackgroundOutput::background;
    o.offset = static_cast<double>(rng() % 100);
    o.border = fmtest::kAllBorders[rng() % 5];
    o.cval = static_cast<double>(rng() % 300);
    std::string what = "background";
    if (!valid) {
        switch (rng() % 3) {
            case 0: o.window = fm::Window::square(2 + 2 * static_cast<int>(rng() % 5)); what += " even size"; break;
            case 1:
                o.method = fm::BackgroundMethod::separable;
                o.window = fm::Window::circle(3.0);
                what += " separable circle";
                break;
            default: o.offset = std::numeric_limits<double>::infinity(); what += " infinite offset"; break;
        }
    }
    return {[o](const fm::ConstImageView& s, const fm::ImageView& d, bool ref) {
                fm::BackgroundOptions r = o;
                r.reference = ref;
                fm::background(s, d, r);
            },
            what};
}

Case random_convolve(std::mt19937& rng, bool valid, int planes) {
    (void)planes;
    // Normalised masks are positive, so that their sum is far from 0.
    const bool normalize = rng() % 4 == 0;
    std::uniform_real_distribution<float> weight(normalize ? 0.1f : -1.0f, 2.0f);
    fm::ConvolveOptions o;
    if (rng() % 2) {
        const int w = 1 + 2 * static_cast<int>(rng() % 4), h = 1 + 2 * static_cast<int>(rng() % 4);
        std::vector<float> mask(static_cast<std::size_t>(w * h));
        for (float& m : mask) m = weight(rng);
        o = fm::ConvolveOptions::generic(mask, w, h);
    } else {
        o = fm::ConvolveOptions::gaussian(0.3 + 0.1 * (rng() % 30));
    }
    o.normalize = normalize;
    o.border = fmtest::kAllBorders[rng() % 5];
    o.cval = static_cast<double>(rng() % 300);
    std::string what = "convolve";
    if (!valid) {
        if (o.mask.empty()) o = fm::ConvolveOptions::generic({1.0f, 2.0f, 1.0f}, 3, 1);
        switch (rng() % 3) {
            case 0: o.mask_width = 2; o.mask.resize(static_cast<std::size_t>(2 * o.mask_height)); what += " even mask"; break;
            case 1: o.mask[0] = std::nanf(""); what += " NaN weight"; break;
            default: o.mask.pop_back(); what += " mask shorter than its size"; break;
        }
    }
    return {[o](const fm::ConstImageView& s, const fm::ImageView& d, bool ref) {
                fm::ConvolveOptions r = o;
                r.reference = ref;
                fm::convolve(s, d, r);
            },
            what};
}

}  // namespace

TEST(Soak, TenThousandRandomCallsEqualTheReferenceAndLeakNothing) {
    std::mt19937 rng(20261123);
    int valid_calls = 0, invalid_calls = 0;
    long after_warm_up = 0;
    long long device_after_warm_up = -1;
    for (int i = 0; i < kCalls; ++i) {
        if (i == kWarmUp) {
            after_warm_up = resident_bytes();
            device_after_warm_up = free_device_bytes();
        }
        const fm::PixelType type = fmtest::kAllTypes[rng() % 3];
        const int width = 1 + static_cast<int>(rng() % 40), height = 1 + static_cast<int>(rng() % 30);
        const int planes = 1 + static_cast<int>(rng() % 4);
        const bool valid = rng() % 3 != 0;
        Stack src(type, width, height, planes);
        fmtest::fill_random(src, rng(), rng() % 3 == 0 ? 3 : 0);
        if (type == fm::PixelType::f32 && rng() % 4 == 0) fmtest::add_specials(src, rng(), 0.2);
        Case c;
        switch (rng() % 5) {
            case 0: c = random_median(rng, valid, planes); break;
            case 1: c = random_temporal(rng, valid, planes); break;
            case 2: c = random_background(rng, valid, planes); break;
            case 3: c = random_median3d(rng, valid, planes); break;
            default: c = random_convolve(rng, valid, planes); break;
        }
        const std::string what = c.what + " " + fm::pixel_type_name(type) + " " +
                                 std::to_string(width) + "x" + std::to_string(height) + "x" +
                                 std::to_string(planes) + " (call " + std::to_string(i) + ")";
        const auto input = src.bytes;
        Stack got(type, width, height, planes, 2, 0);
        const auto poison = got.bytes;
        if (valid) {
            Stack want(type, width, height, planes, 0, 1);
            c.call(src.cview(), want.view(), true);
            c.call(src.cview(), got.view(), false);
            ASSERT_EQ(fmtest::first_difference(want, got), "") << what;
            ++valid_calls;
        } else {
            try {
                c.call(src.cview(), got.view(), false);
                FAIL() << what << ": no error";
            } catch (const fm::Error& e) {
                ASSERT_FALSE(std::string(e.what()).empty()) << what;
            }
            ASSERT_EQ(got.bytes, poison) << what << ": output written";
            ++invalid_calls;
        }
        ASSERT_EQ(src.bytes, input) << what << ": input changed";
    }
    const long growth = resident_bytes() - after_warm_up;
    std::printf("soak: %d valid and %d invalid calls; resident memory %+ld KiB after the warm-up\n",
                valid_calls, invalid_calls, growth / 1024);
    if (!kAddressSanitizer) EXPECT_LT(growth, 16L << 20);
    if (device_after_warm_up >= 0) {
        const long long device_growth = device_after_warm_up - free_device_bytes();
        std::printf("soak: device memory %+lld KiB after the warm-up\n", device_growth / 1024);
        // Kernels met for the first time after the warm-up load lazily into device memory: a
        // few MiB at most, where leaking one buffer per call would lose far more.
        EXPECT_LT(device_growth, 8LL << 20);
    }
}
