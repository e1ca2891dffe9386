// Where a written TIFF goes: what an output path may name, and the temporary file beside it that
// replaces it only once complete.
//
// The rules (README; docs/cli.md):
// - a regular file is replaced, keeping its permission bits and, where the process may set
//   them, its owner and group; a new file gets the umask's permissions;
// - a symbolic link is followed, to the file it names, which is replaced (the link stays);
//   a link to nothing is refused;
// - a folder, a device (/dev/null), a FIFO or a socket is refused: a TIFF is written with seeks
//   and replaces its target whole, which none of them allows;
// - a missing or unwritable folder is found before anything is computed (check_output).
#pragma once

#include <sys/types.h>

#include <string>

namespace fastmedian::tiff {

// The file an output path leads to.
struct OutputTarget {
    std::string path;      // the path itself, or the file its symbolic links lead to
    bool exists = false;   // a regular file is there, to be replaced
    mode_t mode = 0;       // its permission bits, when it exists
    uid_t owner = 0;
    gid_t group = 0;
};

// Checks `path` by the rules above; throws Error (invalid_argument for paths that can name no
// TIFF file, io_error for folders that are missing or cannot be written) naming it.
OutputTarget check_output(const std::string& path);

// A new file beside the target, removed on destruction unless committed, and removed too if
// SIGINT, SIGTERM or SIGHUP ends the process while it exists (one such file at a time: the
// CLI writes one output; a second, while the first exists, is not covered by the handlers).
class TempFile {
public:
    explicit TempFile(const OutputTarget& target);
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    // Hands the descriptor to libtiff, which closes it.
    int release_fd();
    // Renames the file over the target.
    void commit();

private:
    OutputTarget target_;
    std::string path_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace fastmedian::tiff
