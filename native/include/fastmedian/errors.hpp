// Errors thrown by every fastmedian entry point. Nothing aborts the process: each failure is an
// fm::Error carrying a code (for bindings to map to their own exception types) and a message
// that names the offending parameter.
#pragma once

#include <stdexcept>
#include <string>

namespace fastmedian {

enum class ErrorCode {
    invalid_argument,  // a parameter is out of range or inconsistent; the message names it
    unsupported,       // a valid request this build or this file layout cannot serve
    backend_unavailable,  // the requested backend (or device) does not exist here
    device_error,      // the GPU failed (launch, copy, out of memory)
    io_error,          // reading or writing a file failed
    cancelled,         // a CancelScope's flag was set while the call ran (cancel.hpp)
};

const char* error_code_name(ErrorCode code) noexcept;

class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message)
        : std::runtime_error(message), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace fastmedian
