#include "progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <utility>

#include "filter_file.hpp"

namespace fastmedian::cli {

namespace {

// Rounded up: "0 s left" would be wrong until the end.
std::string seconds(double s) {
    if (s < 60) return format_number("%.0f", std::ceil(s)) + " s";
    if (s < 3600) return format_number("%.0f", s / 60) + " min";
    return format_number("%.1f", s / 3600) + " h";
}

}  // namespace

ProgressLine::ProgressLine(bool wanted, std::string name)
    : shown_(wanted && ::isatty(STDERR_FILENO) == 1), name_(std::move(name)) {}

ProgressLine::~ProgressLine() { erase(); }

void ProgressLine::stage(const std::string& what, std::int64_t total) {
    what_ = what;
    total_ = total;
    start_ = Clock::now();
    draw(0);
}

void ProgressLine::update(std::int64_t done) {
    if (!shown_) return;
    if (done >= total_ || Clock::now() - last_ >= std::chrono::milliseconds(100)) draw(done);
}

void ProgressLine::draw(std::int64_t done) {
    if (!shown_) return;
    last_ = Clock::now();
    std::string line = name_ + ": " + what_ + " " + std::to_string(done) + "/" +
                       std::to_string(total_) + (total_ == 1 ? " plane" : " planes");
    const double elapsed = std::chrono::duration<double>(last_ - start_).count();
    if (done > 0 && elapsed > 0) {
        const double rate = done / elapsed;
        line += ", " + format_number(rate < 10 ? "%.1f" : "%.0f", rate) + " planes/s";
        if (done < total_) line += ", " + seconds((total_ - done) / rate) + " left";
    }
    // Back to the line's start, the text, then the rest of the old line erased.
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressLine::erase() {
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
}

}  // namespace fastmedian::cli
