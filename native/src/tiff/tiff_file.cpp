#include "tiff_file.hpp"

#include <cctype>
#include <charconv>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <limits>

#include <unistd.h>

namespace fastmedian::tiff {

namespace {

// libtiff prints some signed sizes with unsigned formats, so a size that went negative (a strip
// starting past the end of the file) reads "got 18446744069414584726 bytes". No size, count or
// offset in a file comes near 2^63, so a decimal number that large is shown as the negative
// value it stands for. Digits inside a word ("0x1F", "u16") are left alone.
std::string signed_sizes(const std::string& text) {
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (!digit(text[i])) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && digit(text[end])) ++end;
        const bool in_word = (i > 0 && alnum(text[i - 1])) || (end < text.size() && alnum(text[end]));
        std::uint64_t value = 0;
        if (!in_word && std::from_chars(text.data() + i, text.data() + end, value).ec == std::errc() &&
            value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            out += std::to_string(static_cast<std::int64_t>(value));
        else
            out.append(text, i, end - i);
        i = end;
    }
    return out;
}

int keep_first_error(TIFF*, void* user_data, const char*, const char* fmt, va_list ap) {
    auto* first = static_cast<std::string*>(user_data);
    if (first->empty()) {
        char buf[512];
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        *first = signed_sizes(buf);
    }
    return 1;  // handled: libtiff must not also call its global handler (stderr)
}

// Warnings (ImageJ's private tags, for one) say nothing the caller can act on.
int ignore_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

TiffFile::TiffFile(int fd, const std::string& name, const char* mode) : name_(name) {
    TIFFOpenOptions* opts = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(opts, keep_first_error, &first_error_);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, ignore_warning, nullptr);
    tif_ = TIFFFdOpenExt(fd, name.c_str(), mode, opts);
    TIFFOpenOptionsFree(opts);
    if (tif_ == nullptr) {
        ::close(fd);
        fail(ErrorCode::io_error,
             mode[0] == 'r' ? "not a readable TIFF file" : "cannot start a TIFF file");
    }
}

TiffFile::~TiffFile() { close(); }

void TiffFile::close() {
    if (tif_ != nullptr) TIFFClose(tif_);
    tif_ = nullptr;
}

void TiffFile::fail(ErrorCode code, const std::string& what) const {
    std::string message = name_ + ": " + what;
    if (!first_error_.empty()) message += " (libtiff: " + first_error_ + ")";
    throw Error(code, message);
}

}  // namespace fastmedian::tiff
