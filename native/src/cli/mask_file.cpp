#include "mask_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <system_error>

#include "args.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian::cli {

namespace {

constexpr std::streamoff kMaxBytes = 1 << 20;

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// A word of the file as a message shows it: bytes outside printable ASCII (a NUL, which would
// end the message in C strings, control and non-ASCII bytes) as \xHH.
std::string printable(const std::string& word) {
    std::string s;
    for (const char c : word) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F) {
            s += c;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            s += hex;
        }
    }
    return s;
}

enum class Number { ok, not_a_number, out_of_range };

// A decimal number with an optional sign ("+1" as ImageJ writes it, but not "+-1"). Past a
// double's range it is out of range; below it (1e-400) it is 0, as a float holds it anyway.
Number parse_mask_number(const std::string& word, double& v) {
    const std::string digits = word[0] == '+' ? word.substr(1) : word;
    if (digits.empty() || digits[0] == '+' || (word[0] == '+' && digits[0] == '-'))
        return Number::not_a_number;
    if (parse_double(digits, v)) return Number::ok;
    // from_chars says result_out_of_range for both ends; strtod tells them apart.
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size() || errno != ERANGE) return Number::not_a_number;
    if (std::isinf(d)) return Number::out_of_range;
    v = 0.0;
    return Number::ok;
}

}  // namespace

MaskFile read_mask_file(const std::string& path, const std::string& option, int max_size) {
    // Opened and read with a bound on the bytes taken, whatever the file is: /dev/zero or a FIFO
    // reports no size and would be read until memory ran out.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw UsageError(option + " " + path + " is a directory, not a mask file");
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw Error(ErrorCode::io_error, option + ": cannot open " + path + ": " + std::strerror(errno));
    std::string text(static_cast<std::size_t>(kMaxBytes) + 1, '\0');
    file.read(text.data(), kMaxBytes + 1);
    if (file.bad()) throw Error(ErrorCode::io_error, option + ": cannot read " + path);
    text.resize(static_cast<std::size_t>(file.gcount()));
    if (static_cast<std::streamoff>(text.size()) > kMaxBytes)
        throw UsageError(option + " " + path + " is larger than 1 MiB; a mask has at most " +
                         std::to_string(max_size) + " x " + std::to_string(max_size) + " numbers");
    // Editors on Windows start UTF-8 text with a byte-order mark; it is no part of the numbers.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);

    const std::string where = option + " " + path + ": ";
    MaskFile m;
    std::istringstream lines(text);
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
            const std::string at = where + "line " + std::to_string(number) + ": ";
            double v = 0.0;
            const Number n = parse_mask_number(word, v);
            if (n == Number::not_a_number)
                throw UsageError(at + "'" + printable(word) + "' is not a number");
            if (n == Number::ok && !std::isfinite(v))
                throw UsageError(at + printable(word) + " is not a finite float");
            if (n == Number::out_of_range || std::fabs(v) > std::numeric_limits<float>::max())
                throw UsageError(at + printable(word) +
                                 " is out of a float's range (at most 3.4e38 in magnitude)");
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
