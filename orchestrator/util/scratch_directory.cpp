#include "util/scratch_directory.h"

#include <fmt/core.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/error.h"

namespace sweep {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxFiles = 8;
constexpr std::size_t kPathBytes = 4096;
constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};

// What the handler removes: full paths, written before the handlers are installed and cleared after
// they are restored, so the handler reads them only while they are whole.
char g_files[kMaxFiles][kPathBytes];
std::size_t g_file_count = 0;
char g_directory[kPathBytes];
volatile sig_atomic_t g_active = 0;
struct sigaction g_previous[kSignals.size()];

void on_signal(int signal) {
  if (g_active) {
    for (std::size_t i = 0; i < g_file_count; ++i) ::unlink(g_files[i]);
    ::rmdir(g_directory);
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  ::sigemptyset(&fallback.sa_mask);
  ::sigaction(signal, &fallback, nullptr);
  ::raise(signal);
}

fs::path parent_or_tmp(const fs::path& parent) {
  if (!parent.empty()) return parent;
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

void copy_path(char* out, const std::string& path) {
  if (path.size() >= kPathBytes) throw Error(ErrorKind::internal, fmt::format("scratch path too long: {}", path));
  std::memcpy(out, path.c_str(), path.size() + 1);
}

}  // namespace

int remove_stale_scratch(const fs::path& parent, const std::string& prefix) {
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(parent_or_tmp(parent), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) continue;
    const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
    struct stat st {};
    if (pid <= 0 || ::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or another user's
    std::error_code ignored;
    if (fs::remove_all(it->path(), ignored) > 0 && !ignored) ++removed;
  }
  return removed;
}

ScratchDirectory::ScratchDirectory(const fs::path& parent, const std::string& prefix, const std::vector<std::string>& files) {
  if (g_active) throw Error(ErrorKind::internal, "a second scratch directory in one process");
  if (files.size() > kMaxFiles) throw Error(ErrorKind::internal, "too many scratch files to remove on a signal");
  const fs::path where = parent_or_tmp(parent);
  remove_stale_scratch(where, prefix);
  std::string pattern = (where / fmt::format("{}{}-XXXXXX", prefix, ::getpid())).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error(ErrorKind::io, fmt::format("cannot make a private directory in {}: {}", where.string(), std::strerror(errno)));
  path_ = pattern;
  try {
    copy_path(g_directory, path_.string());
    for (std::size_t i = 0; i < files.size(); ++i) copy_path(g_files[i], (path_ / files[i]).string());
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
    throw;
  }
  g_file_count = files.size();
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the paths are whole before the handler may read them
  g_active = 1;
  struct sigaction handler {};
  handler.sa_handler = on_signal;
  ::sigemptyset(&handler.sa_mask);
  for (std::size_t i = 0; i < kSignals.size(); ++i) {
    ::sigaction(kSignals[i], nullptr, &g_previous[i]);
    if (g_previous[i].sa_handler == SIG_IGN) continue;  // nohup: an ignored signal stays ignored
    ::sigaction(kSignals[i], &handler, nullptr);
  }
}

ScratchDirectory::~ScratchDirectory() {
  for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &g_previous[i], nullptr);
  g_active = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  g_file_count = 0;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace sweep
