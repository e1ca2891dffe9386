// An open libtiff handle that keeps libtiff's messages for our errors instead of printing them.
#pragma once

#include <string>

#include <tiffio.h>

#include "fastmedian/errors.hpp"

namespace fastmedian::tiff {

class TiffFile {
public:
    // Takes ownership of `fd` (closed on failure too); `name` is what messages call the file.
    TiffFile(int fd, const std::string& name, const char* mode);
    ~TiffFile();
    TiffFile(const TiffFile&) = delete;
    TiffFile& operator=(const TiffFile&) = delete;

    TIFF* get() const { return tif_; }
    // Closes now (the destructor then does nothing).
    void close();

    // Throws Error(code, "NAME: what (libtiff: first message)").
    [[noreturn]] void fail(ErrorCode code, const std::string& what) const;

private:
    std::string name_;
    std::string first_error_;  // libtiff's first error message; the later ones follow from it
    TIFF* tif_ = nullptr;
};

}  // namespace fastmedian::tiff
