// Argument checks shared by every entry point: each failure throws Error(invalid_argument)
// with a message that names the parameter.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/median3d.hpp"
#include "fastmedian/options.hpp"
#include "fastmedian/temporal.hpp"

namespace fastmedian::detail {

// `name` prefixes messages ("src.width must be at least 1, got 0").
void validate_view(const ConstImageView& view, const char* name);
void validate_window(const Window& window);
// src and dst: valid views of the same type, size and memory that do not overlap.
void validate_pair(const ConstImageView& src, const ImageView& dst);
// As validate_pair, but dst may be any box of src's output that starts at `origin`.
void validate_region(const ConstImageView& src, const ImageView& dst, const Origin& origin);
// The devices a host call may spread over: distinct indices of at least 0.
void validate_devices(const std::vector<int>& devices);

// The backend, device, stream and reference choices for views in `memory`.
void validate_run(Backend backend, int device, const void* cuda_stream, bool reference,
                  Memory memory);
void validate_median(const ConstImageView& src, const ImageView& dst, const MedianOptions& options);
void validate_window3d(const Window3D& window);
void validate_median3d(const ConstImageView& src, const ImageView& dst, const Median3DOptions& options);
// The window (against a stack of `frames` frames), mode and offset.
void validate_temporal_options(const TemporalOptions& options, std::int64_t frames);
void validate_temporal(const ConstImageView& src, const ImageView& dst, const TemporalOptions& options);

}  // namespace fastmedian::detail
