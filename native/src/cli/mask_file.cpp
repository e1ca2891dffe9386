#include "mask_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "args.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian::cli {

namespace {

constexpr std::streamoff kMaxBytes = 1 << 20;

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

MaskFile read_mask_file(const std::string& path, const std::string& option, int max_size) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw Error(ErrorCode::io_error, option + ": cannot open " + path + ": " + std::strerror(errno));
    file.seekg(0, std::ios::end);
    const std::streamoff size = file.tellg();
    file.seekg(0, std::ios::beg);
    if (size > kMaxBytes)
        throw UsageError(option + " " + path + " is larger than 1 MiB; a mask has at most " +
                         std::to_string(max_size) + " x " + std::to_string(max_size) + " numbers");
    std::ostringstream text;
    text << file.rdbuf();
    if (!file && !file.eof())
        throw Error(ErrorCode::io_error, option + ": cannot read " + path);

    const std::string where = option + " " + path + ": ";
    MaskFile m;
    std::istringstream lines(text.str());
    std::string line;
    int first_line = 0;
    for (int number = 1; std::getline(lines, line); ++number) {
        int count = 0;
        for (std::size_t i = 0; i < line.size();) {
            if (space(line[i])) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < line.size() && !space(line[j])) ++j;
            std::string word = line.substr(i, j - i);
            i = j;
            double v = 0.0;
            const std::string digits = word[0] == '+' ? word.substr(1) : word;
            if (!parse_double(digits, v))
                throw UsageError(where + "line " + std::to_string(number) + ": '" + word + "' is not a number");
            if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<float>::max())
                throw UsageError(where + "line " + std::to_string(number) + ": " + word +
                                 " is not a finite float");
            m.values.push_back(static_cast<float>(v));
            ++count;
        }
        if (count == 0) continue;
        if (m.height == 0) {
            m.width = count;
            first_line = number;
        } else if (count != m.width) {
            throw UsageError(where + "line " + std::to_string(number) + " has " + std::to_string(count) +
                             " numbers but line " + std::to_string(first_line) + " has " +
                             std::to_string(m.width) + "; every row needs the same count");
        }
        ++m.height;
        if (m.height > max_size) break;
    }
    if (m.height == 0) throw UsageError(where + "holds no numbers");
    if (m.width % 2 == 0 || m.height % 2 == 0 || m.width > max_size || m.height > max_size)
        throw UsageError(where + "the mask is " + std::to_string(m.width) + " wide and " +
                         (m.height > max_size ? "more than " + std::to_string(max_size)
                                              : std::to_string(m.height)) +
                         " high; both must be odd, from 1 to " + std::to_string(max_size));
    return m;
}

}  // namespace fastmedian::cli
