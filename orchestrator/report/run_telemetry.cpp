#include "report/run_telemetry.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"
#include "util/names.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

/// The file's text, or throws Error(io) saying why it is not read.
std::string read_checked(const std::string& path, TelemetryBudget& budget) {
  const Fd f{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) {
    const int e = errno;
    throw Error(ErrorKind::io, e == ELOOP ? "is a symlink: not followed" : e == ENOENT ? "missing" : std::strerror(e));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw Error(ErrorKind::io, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw Error(ErrorKind::io, "not a regular file");
  if (const std::string why = untrusted_reason(st, ::geteuid(), group_sharing_allowed()); !why.empty())
    throw Error(ErrorKind::io, "not trusted: " + why);
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > budget.file_bytes)
    throw Error(ErrorKind::io, fmt::format("{} bytes, more than the {} a telemetry file may have: not read", size, budget.file_bytes));
  if (size > budget.bytes_left)
    throw Error(ErrorKind::io, fmt::format("{} bytes, more than the {} left of what one report reads: not read", size, budget.bytes_left));
  budget.bytes_left -= size;
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(ErrorKind::io, std::strerror(errno));
    if (n == 0) break;  // it shrank since fstat: what is there is read
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

}  // namespace

std::string telemetry_name_problem(std::string_view name) {
  const std::string_view prefix = telemetry::kFilePrefix;
  if (!name.starts_with(prefix)) return fmt::format("not named {}<node>", prefix);
  try {
    require_safe_name(name.substr(prefix.size()), "telemetry node");
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

RunTelemetry read_run_telemetry(const std::string& run_dir, std::string_view files, TelemetryBudget& budget) {
  RunTelemetry out;
  if (run_dir.empty()) {
    out.problems.push_back("the run has no run directory: its telemetry files are not read");
    return out;
  }
  std::size_t count = 0;
  for (const auto& name : split(std::string(files), ' ')) {
    if (name.empty()) continue;
    if (++count > kMaxTelemetryFiles) {
      out.problems.push_back(fmt::format("{}: more than {} telemetry files named; the rest are not read", run_dir, kMaxTelemetryFiles));
      break;
    }
    const std::string path = run_dir + "/" + name;
    if (const std::string why = telemetry_name_problem(name); !why.empty()) {
      out.problems.push_back(fmt::format("{}: refused as a telemetry file name: {}", path, why));
      continue;
    }
    try {
      out.logs.push_back(telemetry::parse_telemetry(read_checked(path, budget), path));
    } catch (const Error& e) {
      out.problems.push_back(e.where().str().empty() ? path + ": " + e.message() : e.what());
    }
  }
  return out;
}

}  // namespace sweep::report
