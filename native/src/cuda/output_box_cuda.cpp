#include "cuda/output_box_cuda.hpp"

#include <cstdint>
#include <cstring>
#include <memory>

#include "cuda/cuda_util.hpp"

namespace fastmedian::detail {

void filter_box_cuda(const SourcePart& part, const ImageView& dst, cudaStream_t stream,
                     const std::function<void(const ConstImageView&, const ImageView&)>& filter) {
    const ConstImageView& src = part.view;
    const auto px = static_cast<std::int64_t>(pixel_size(src.type));
    const auto bytes = static_cast<std::size_t>(src.width * src.height * src.planes * px);
    std::unique_ptr<std::uint8_t[]> host;
    ScratchMemory device(true);
    ImageView whole;
    whole.data = src.memory == Memory::cuda ? static_cast<std::uint8_t*>(device.get(bytes, stream))
                                            : (host.reset(new std::uint8_t[bytes]), host.get());
    whole.type = src.type;
    whole.width = src.width;
    whole.height = src.height;
    whole.planes = src.planes;
    whole.row_stride = src.width * px;
    whole.plane_stride = whole.row_stride * src.height;
    whole.memory = src.memory;
    filter(src, whole);
    const Origin& o = part.origin;
    const std::int64_t row_bytes = dst.width * px;
    for (std::int64_t z = 0; z < dst.planes; ++z) {
        const std::uint8_t* from = whole.row(z + o.plane, o.y) + o.x * px;
        if (src.memory == Memory::cuda) {
            check(cudaMemcpy2DAsync(dst.plane(z), static_cast<std::size_t>(dst.row_stride), from,
                                    static_cast<std::size_t>(whole.row_stride),
                                    static_cast<std::size_t>(row_bytes),
                                    static_cast<std::size_t>(dst.height), cudaMemcpyDeviceToDevice,
                                    stream),
                  "cudaMemcpy2DAsync (output box)");
        } else {
            for (std::int64_t y = 0; y < dst.height; ++y)
                std::memcpy(dst.row(z, y), from + y * whole.row_stride, static_cast<std::size_t>(row_bytes));
        }
    }
}

}  // namespace fastmedian::detail
