// The progress line of a long run on a terminal: "in.tif: reading 120/400 planes, 85 planes/s,
// 3 s left", redrawn in place on stderr at most ten times a second and erased when the run ends.
// Drawn only when stderr is a terminal and it is wanted (no --quiet), so logs and pipes get
// none of it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace fastmedian::cli {

class ProgressLine {
public:
    // `name`: what the line is about (the input file's name).
    ProgressLine(bool wanted, std::string name);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // A new stage ("reading", "filtering", "writing") of `total` planes; draws it at 0.
    void stage(const std::string& what, std::int64_t total);
    // `done` of the stage's planes are done; draws when a tenth of a second has passed since the
    // last drawing, or when the stage is complete.
    void update(std::int64_t done);
    // Erases the line (the summary or an error follows on a clean line).
    void erase();
    // Whether the line is drawn at all.
    bool shown() const { return shown_; }

private:
    using Clock = std::chrono::steady_clock;
    void draw(std::int64_t done);

    bool shown_;
    std::string name_, what_;
    std::int64_t total_ = 0;
    Clock::time_point start_, last_;
    bool drawn_ = false;
};

}  // namespace fastmedian::cli
