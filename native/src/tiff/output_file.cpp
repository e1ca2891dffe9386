#include "output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <string>
#include <utility>

#include "fastmedian/errors.hpp"

namespace fastmedian::tiff {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCode::invalid_argument, what); }

[[noreturn]] void fail_errno(const std::string& what) {
    throw Error(ErrorCode::io_error, what + ": " + std::strerror(errno));
}

std::string folder_of(const std::string& path) {
    const std::string parent = std::filesystem::path(path).parent_path().string();
    return parent.empty() ? "." : parent;
}

const char* kind_of(mode_t mode) {
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// The folder that will hold the temporary file and then the output: it must exist and take
// new files, and the output's name must fit in it.
void check_folder(const std::string& shown, const std::string& file) {
    const std::string folder = folder_of(file);
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0)
        fail_errno("cannot write " + shown + " (its folder " + folder + ")");
    if (!S_ISDIR(st.st_mode)) refuse("cannot write " + shown + ": " + folder + " is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        fail_errno("cannot write " + shown + " (creating files in " + folder + ")");
    const long name_max = ::pathconf(folder.c_str(), _PC_NAME_MAX);
    const std::size_t name = std::filesystem::path(file).filename().string().size();
    if (name_max > 0 && name > static_cast<std::size_t>(name_max))
        refuse("cannot write " + shown + ": its name is " + std::to_string(name) +
               " bytes long, more than the " + std::to_string(name_max) + " its folder allows");
}

// The temporary file that SIGINT, SIGTERM and SIGHUP remove: a fixed buffer, since a signal
// handler may not allocate.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kCount = std::size(kSignals);
char g_pending[PATH_MAX];
volatile std::sig_atomic_t g_has_pending = 0;
struct sigaction g_previous[kCount];
bool g_installed[kCount] = {};

void remove_pending_and_reraise(int sig) {
    if (g_has_pending) ::unlink(g_pending);
    for (std::size_t i = 0; i < kCount; ++i)
        if (kSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
    ::raise(sig);  // pending until this handler returns, then the previous disposition acts
}

// Blocks the three signals for its lifetime, so that registering is never half done.
class SignalsBlocked {
public:
    SignalsBlocked() {
        sigset_t set;
        sigemptyset(&set);
        for (const int s : kSignals) sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    SignalsBlocked(const SignalsBlocked&) = delete;
    SignalsBlocked& operator=(const SignalsBlocked&) = delete;

private:
    sigset_t old_;
};

// Called with the signals blocked. A signal the process ignores (nohup's SIGHUP) stays ignored.
void register_pending(const std::string& path) {
    if (g_has_pending || path.size() >= sizeof g_pending) return;
    std::memcpy(g_pending, path.c_str(), path.size() + 1);
    g_has_pending = 1;
    for (std::size_t i = 0; i < kCount; ++i) {
        struct sigaction now {};
        ::sigaction(kSignals[i], nullptr, &now);
        if (now.sa_handler == SIG_IGN) continue;
        struct sigaction mine {};
        mine.sa_handler = remove_pending_and_reraise;
        sigemptyset(&mine.sa_mask);
        g_installed[i] = ::sigaction(kSignals[i], &mine, &g_previous[i]) == 0;
    }
}

void unregister_pending(const std::string& path) {
    if (!g_has_pending || path != g_pending) return;
    for (std::size_t i = 0; i < kCount; ++i)
        if (std::exchange(g_installed[i], false)) ::sigaction(kSignals[i], &g_previous[i], nullptr);
    g_has_pending = 0;
}

}  // namespace

OutputTarget check_output(const std::string& path) {
    if (path.empty()) refuse("the output path is empty");
    OutputTarget t;
    t.path = path;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        // check_folder says which part is wrong: the folder, or a name too long for it.
        if (errno != ENOENT && errno != ENOTDIR && errno != ENAMETOOLONG)
            fail_errno("cannot write " + path);
        check_folder(path, path);
        return t;
    }
    if (S_ISLNK(st.st_mode)) {
        // stat first: /dev/stdout leads to "pipe:[N]", which stat follows and realpath cannot.
        if (::stat(path.c_str(), &st) != 0)
            refuse("cannot write " + path + ": it is a symbolic link to nothing (" +
                   std::strerror(errno) + ")");
        if (S_ISREG(st.st_mode)) {
            char* resolved = ::realpath(path.c_str(), nullptr);
            if (resolved == nullptr) fail_errno("cannot write " + path);
            t.path = resolved;
            std::free(resolved);
        }
    }
    if (S_ISDIR(st.st_mode)) refuse("cannot write " + path + ": it is a folder");
    if (!S_ISREG(st.st_mode))
        refuse("cannot write " + path + ": it is " + kind_of(st.st_mode) +
               "; TIFF files are written to regular files only");
    check_folder(path, t.path);
    t.exists = true;
    t.mode = st.st_mode & 07777;
    t.owner = st.st_uid;
    t.group = st.st_gid;
    return t;
}

TempFile::TempFile(const OutputTarget& target) : target_(target) {
    static std::atomic<unsigned> counter{0};
    // A short name of its own, not the target's name with a suffix, which could pass the
    // folder's name limit where the target's name fits.
    const std::string stem = folder_of(target.path) + "/.fastmedian-" + std::to_string(::getpid()) + "-";
    const SignalsBlocked blocked;
    // O_EXCL: never reuse a file someone else made; mode 0666 lets the umask decide, as for any
    // new file; read access because libtiff rereads a page's directory to link the next.
    for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
        path_ = stem + std::to_string(counter++) + ".tmp";
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) fail_errno("cannot write " + target.path + " (creating " + path_ + ")");
    register_pending(path_);
    if (target.exists) {
        // The owner first: changing it may clear the set-user-ID bits that fchmod then sets.
        // Only root may give a file away; others keep their own (as any editor's rewrite does).
        (void)::fchown(fd_, target.owner, target.group);
        (void)::fchmod(fd_, target.mode);
    }
}

TempFile::~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    const SignalsBlocked blocked;
    if (!committed_) ::unlink(path_.c_str());
    unregister_pending(path_);
}

int TempFile::release_fd() { return std::exchange(fd_, -1); }

void TempFile::commit() {
    if (::rename(path_.c_str(), target_.path.c_str()) != 0) fail_errno("cannot write " + target_.path);
    committed_ = true;
}

}  // namespace fastmedian::tiff
