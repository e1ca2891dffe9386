// Options that more than one command parses, parsed in one place: the 2D window (--size K |
// --radius R), the border and its constant (--border, --cval) and the subtract offset
// (--offset). Every mistake is a UsageError naming the option.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "args.hpp"
#include "fastmedian/fastmedian.hpp"

namespace fastmedian::cli {

// The library's bound on an offset (TemporalOptions::offset, BackgroundOptions::offset).
constexpr double kMaxOffset = 1e9;

// Exactly one of --size K (odd, 1..1023: a square) or --radius R (0..511: ImageJ's circle);
// `command` names the command in the message when neither or both are given.
Window parse_window(const Args& a, const std::string& command);
// --border MODE (default replicate) and --cval V, which applies only to --border constant.
// NaN and infinities pass (meaningful for float images); check_cval refuses them for integer
// images once the type is known.
void parse_border_and_cval(const Args& a, Border& border, double& cval);
// Throws UsageError for a non-finite --cval with --border constant on an integer image.
void check_cval(Border border, double cval, PixelType type);
// The value of --offset: a finite number within +-kMaxOffset.
double parse_offset(const std::string& value);

// --devices LIST: CUDA device indices separated by commas ("0,1"), or "all" (every device
// present; none: an empty list, so the call runs as without the option). Refused with
// --backend cpu (`backend`), where it would be ignored.
std::vector<int> parse_devices(const std::string& value, Backend backend);

// --max-memory BYTES: the ceiling on the memory a command's input and output stacks take
// together, in bytes or with a suffix K, M or G (KiB, MiB, GiB: "512M", "8G"); without the
// option, the machine's physical memory.
std::uint64_t parse_max_memory(const Args& a);

// "5x5" or "radius 2", then the border ("5x5 reflect", "radius 2 constant 3").
std::string describe(const Window& window, Border border, double cval);

}  // namespace fastmedian::cli
