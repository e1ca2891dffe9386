// TemporalMedianStream: the last N frames in a ring (host memory for the CPU, device memory for
// CUDA), one output per pushed frame.
#include <cstring>
#include <future>
#include <string>
#include <vector>

#include "core/backend_choice.hpp"
#include "core/validate.hpp"
#include "cpu/temporal_cpu.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/errors.hpp"
#include "fastmedian/temporal.hpp"
#include "semantics/output_mode.hpp"

namespace fastmedian {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw Error(ErrorCode::invalid_argument, message);
}

}  // namespace

class TemporalMedianStream::Impl {
public:
    Impl(PixelType type, std::int64_t width, std::int64_t height, const TemporalOptions& o)
        : type_(type), width_(width), height_(height), window_(o.window),
          offset_(detail::output_mode(o.mode == TemporalMode::subtract, o.offset)) {
        if (type != PixelType::u8 && type != PixelType::u16 && type != PixelType::f32)
            fail("type is not one of u8, u16, f32");
        if (width < 1 || height < 1 || width > (std::int64_t{1} << 31) || height > (std::int64_t{1} << 31))
            fail("width and height must be in 1..2^31, got " + std::to_string(width) + "x" +
                 std::to_string(height));
        detail::validate_temporal_options(o, TemporalOptions::kMaxWindow);
        detail::validate_run(o.backend, o.device, nullptr, false, Memory::host);
        info_ = detail::choose_backend(o.backend, o.device, Memory::host);
        frame_bytes_ = width * height * static_cast<std::int64_t>(pixel_size(type));
        if (info_.backend == Backend::cuda) {
            cuda_ = std::make_unique<detail::TemporalStreamCuda>(type, width, height, window_,
                                                                 offset_, info_.device);
            return;
        }
        ring_.resize(static_cast<std::size_t>(frame_bytes_ * window_));
        result_.resize(static_cast<std::size_t>(frame_bytes_));
    }

    ~Impl() {
        if (job_.valid()) job_.wait();
    }

    void push_async(const ConstImageView& frame) {
        check_view(frame, "frame");
        if (pending_) fail("push_async: fetch() the pending result first");
        if (cuda_) {
            cuda_->start(frame, pushed_);
            ++pushed_;
            pending_ = true;
            return;
        }
        std::uint8_t* slot = ring_.data() + (pushed_ % window_) * frame_bytes_;
        const std::int64_t row_bytes = frame_bytes_ / height_;
        for (std::int64_t y = 0; y < height_; ++y)
            std::memcpy(slot + y * row_bytes, frame.row(0, y), static_cast<std::size_t>(row_bytes));
        const int count = static_cast<int>(std::min<std::int64_t>(pushed_ + 1, window_));
        ++pushed_;
        pending_ = true;
        ImageView out = ImageView::dense<std::uint8_t>(result_.data(), width_, height_);
        out.type = type_;
        out.row_stride = row_bytes;
        out.plane_stride = frame_bytes_;
        job_ = std::async(std::launch::async, [this, slot, count, out] {
            detail::temporal_frame_cpu(ring_.data(), frame_bytes_, count, slot, out, offset_);
        });
    }

    void fetch(const ImageView& out) {
        check_view(as_const(out), "out");
        if (!pending_) fail("fetch: no result is pending (push_async a frame first)");
        pending_ = false;
        if (cuda_) {
            cuda_->finish(out);
            return;
        }
        job_.get();
        const std::int64_t row_bytes = frame_bytes_ / height_;
        for (std::int64_t y = 0; y < height_; ++y)
            std::memcpy(out.row(0, y), result_.data() + y * row_bytes, static_cast<std::size_t>(row_bytes));
    }

    void push(const ConstImageView& frame, const ImageView& out) {
        check_view(as_const(out), "out");  // before the frame goes in, so a bad out loses nothing
        push_async(frame);
        fetch(out);
    }

    std::int64_t pushed() const { return pushed_; }
    const RunInfo& info() const { return info_; }

private:
    void check_view(const ConstImageView& v, const char* name) const {
        detail::validate_view(v, name);
        const std::string n(name);
        if (v.memory != Memory::host) fail(n + ".memory must be host");
        if (v.type != type_)
            fail(n + ".type (" + pixel_type_name(v.type) + ") differs from the stream's (" +
                 pixel_type_name(type_) + ")");
        if (v.width != width_ || v.height != height_ || v.planes != 1)
            fail(n + " size " + std::to_string(v.width) + "x" + std::to_string(v.height) + "x" +
                 std::to_string(v.planes) + " differs from the stream's frames, " +
                 std::to_string(width_) + "x" + std::to_string(height_) + "x1");
    }

    PixelType type_;
    std::int64_t width_, height_, frame_bytes_ = 0;
    int window_;
    kernels::OutputMode offset_;
    RunInfo info_;
    std::int64_t pushed_ = 0;
    bool pending_ = false;
    std::vector<std::uint8_t> ring_, result_;
    std::future<void> job_;
    std::unique_ptr<detail::TemporalStreamCuda> cuda_;
};

TemporalMedianStream::TemporalMedianStream(PixelType type, std::int64_t width, std::int64_t height,
                                           const TemporalOptions& options)
    : impl_(std::make_unique<Impl>(type, width, height, options)) {}
TemporalMedianStream::~TemporalMedianStream() = default;
TemporalMedianStream::TemporalMedianStream(TemporalMedianStream&&) noexcept = default;
TemporalMedianStream& TemporalMedianStream::operator=(TemporalMedianStream&&) noexcept = default;

void TemporalMedianStream::push(const ConstImageView& frame, const ImageView& out) {
    impl_->push(frame, out);
}

void TemporalMedianStream::push_async(const ConstImageView& frame) { impl_->push_async(frame); }
void TemporalMedianStream::fetch(const ImageView& out) { impl_->fetch(out); }
std::int64_t TemporalMedianStream::frames_pushed() const noexcept { return impl_->pushed(); }
const RunInfo& TemporalMedianStream::run_info() const noexcept { return impl_->info(); }

}  // namespace fastmedian
