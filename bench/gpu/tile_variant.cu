// One tile variant of a tiled square median (a squareK.cu from tools/generators/median_tiled.py
// --variant, included as VARIANT, launched by LAUNCH = launch_squareK), timed on 4096^2 images
// tiled from bench/gpu/images, u8 / u16 / f32, replicate border, median of 15 batches after
// warm-up. Prints Gpix/s and a hash of each output, so variants can be checked against the
// table's own network. Built and run by run_tile_variants.sh, not by CMake.
//   tile_variant IMAGES_DIR [images|walk|noise]
#include VARIANT

#include <cstdio>
#include <vector>

#include "event_timing.hpp"
#include "data_kinds.hpp"

int main(int argc, char** argv) {
    using fastmedian::PixelType;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s IMAGES_DIR [images|flat|noise|walk]\n", argv[0]);
        return 2;
    }
    const std::string data = argc > 2 ? argv[2] : "images";
    constexpr std::int64_t n = 4096;
    for (PixelType type : {PixelType::u8, PixelType::u16, PixelType::f32}) {
        if (bench::data_kinds(data, type).empty()) continue;  // flat: f32 only
        const std::int64_t row = n * static_cast<std::int64_t>(fastmedian::pixel_size(type));
        const bench::HostImage image = bench::input_plane(argv[1], data, type, n);
        bench::DeviceImage src(row, n), dst(row, n);
        bench::check(cudaMemcpy2D(src.ptr, src.pitch, image.bytes.data(), row, row, n, cudaMemcpyHostToDevice),
                     "cudaMemcpy2D");
        bench::check(cudaMemset2D(dst.ptr, dst.pitch, 0xA5, row, n), "cudaMemset2D");  // poison
        fastmedian::kernels::PlanesArgs a{};
        a.src = src.ptr;
        a.src_pitch = src.pitch;
        a.src_plane_stride = src.pitch * n;
        a.dst = dst.ptr;
        a.dst_pitch = dst.pitch;
        a.dst_plane_stride = dst.pitch * n;
        a.width = a.height = static_cast<int>(n);
        a.planes = 1;
        a.border = 0;  // replicate
        bench::DeviceImage marks(static_cast<std::int64_t>(fastmedian::kernels::tiled::whole_marks_bytes(a)), 1);
        const double ms = bench::time_ms(
            [&] {
                bench::check(fastmedian::kernels::tiled::LAUNCH(type, a, static_cast<std::uint8_t*>(marks.ptr), nullptr),
                             "launch");
            },
            nullptr, 15);
        std::vector<std::uint8_t> out(static_cast<std::size_t>(row * n));
        bench::check(cudaMemcpy2D(out.data(), row, dst.ptr, dst.pitch, row, n, cudaMemcpyDeviceToHost), "cudaMemcpy2D");
        std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
        for (std::uint8_t b : out) hash = (hash ^ b) * 1099511628211ull;
        std::printf("%-4s %8.2f Gpix/s  hash %016llx\n", fastmedian::pixel_type_name(type), n * n / ms / 1e6,
                    static_cast<unsigned long long>(hash));
    }
}
