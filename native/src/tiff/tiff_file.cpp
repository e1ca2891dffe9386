#include "tiff_file.hpp"

#include <cstdarg>
#include <cstdint>
#include <cstdio>

#include <unistd.h>

namespace fastmedian::tiff {

namespace {

int keep_first_error(TIFF*, void* user_data, const char*, const char* fmt, va_list ap) {
    auto* first = static_cast<std::string*>(user_data);
    if (first->empty()) {
        char buf[512];
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        *first = buf;
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
