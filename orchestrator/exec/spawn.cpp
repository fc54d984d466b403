#include "exec/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "util/safe_files.h"
#include "util/error.h"

// The job is started with vfork + execve, written here rather than through Boost.Process (which
// exec/capture.cpp uses for helper commands): Boost 1.74 offers vfork only where the C library
// predates POSIX.1-2008, its start_dir ignores a failed chdir, and a throwing launch leaves the
// failed child unreaped. vfork, not fork: fork copies the controller's page tables for every run,
// which on a virtual machine costs more than a trivial run's whole job script (bench/campaign_1000).

namespace sweep::exec {
namespace {

/// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

[[noreturn]] void fail(const Job& job, const std::string& reason) {
  throw Error(ErrorKind::io, fmt::format("cannot start job {}: {}", job.id, reason));
}

/// Moves `fd` (close-on-exec) to a descriptor >= 3, so that dup2 onto 0..2 in the child never
/// clobbers another of the job's descriptors. Throws through fail().
int above_stdio(const Job& job, const std::string& path, int fd) {
  if (fd < 3) {
    int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int err = errno;
    ::close(fd);
    if (high < 0) fail(job, fmt::format("cannot open {}: {}", path, std::strerror(err)));
    fd = high;
  }
  return fd;
}

/// Opens `path` close-on-exec at a descriptor >= 3. Throws through fail().
int open_job_file(const Job& job, const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) fail(job, fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  return above_stdio(job, path, fd);
}

/// Opens the job's capture file `path` emptied: a new file or the user's own regular one, never
/// through a symlink (util/safe_files.h). Throws through fail().
int open_capture_file(const Job& job, const std::string& path) {
  int fd = -1;
  try {
    fd = open_own_for_writing(path, 0644);
  } catch (const Error& e) {
    fail(job, e.message());
  }
  return above_stdio(job, path, fd);
}

/// What the child reports through the setup pipe when it cannot get as far as execve.
struct SetupFailure {
  int step;  // index into kSteps
  int err;   // errno
};
constexpr std::array<const char*, 5> kSteps{"setpgid", "prctl(PR_SET_PDEATHSIG)", "redirect stdio",
                                            "enter work_dir", "execve"};

/// Everything between vfork and execve. The child shares the parent's memory until it execs or
/// exits, so this does only async-signal-safe system calls and writes nothing but its own stack. On
/// failure the child writes one SetupFailure (atomic: smaller than PIPE_BUF) and exits 127.
struct ChildSetup {
  const char* script;
  char** argv;
  char** envp;  // the job's environment, NULL-terminated
  pid_t parent;
  std::array<int, 3> stdio;  // descriptors for 0, 1, 2
  const char* work_dir;
  int report_fd;

  [[noreturn]] void run() const {
    if (::setpgid(0, 0) != 0) die(0);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) die(1);
    if (::getppid() != parent) ::_exit(127);  // the controller died before prctl: nobody to tell
    reset_signals();
    for (int target = 0; target < 3; ++target)
      if (::dup2(stdio[target], target) < 0) die(2);
    if (::chdir(work_dir) != 0) die(3);
    ::execve(script, argv, envp);
    die(4);
  }

 private:
  static void reset_signals() {
    sigset_t none;
    ::sigemptyset(&none);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) ::signal(sig, SIG_DFL);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
  }
  [[noreturn]] void die(int step) const {
    SetupFailure f{step, errno};
    ssize_t ignored = ::write(report_fd, &f, sizeof f);
    (void)ignored;
    ::_exit(127);
  }
};

void reap_blocking(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

/// An execve environment: ours, with job.env added or replacing same-named entries.
class Environment {
 public:
  explicit Environment(const Job& job) {
    for (char** e = ::environ; e != nullptr && *e != nullptr; ++e) entries_.emplace_back(*e);
    for (const auto& [name, value] : job.env) set(job, name, value);
    for (std::string& entry : entries_) pointers_.push_back(entry.data());
    pointers_.push_back(nullptr);
  }
  char** envp() { return pointers_.data(); }

 private:
  void set(const Job& job, const std::string& name, const std::string& value) {
    if (name.empty() || name.find_first_of(std::string_view("=\0", 2)) != std::string::npos)
      fail(job, fmt::format("invalid environment variable name \"{}\"", name));
    std::string entry = name + "=" + value;
    for (std::string& old : entries_)
      if (old.size() > name.size() && old.compare(0, name.size() + 1, entry, 0, name.size() + 1) == 0)
        return void(old = std::move(entry));
    entries_.push_back(std::move(entry));
  }

  std::vector<std::string> entries_;
  std::vector<char*> pointers_;
};

/// Reads the setup pipe after the launch; throws when the child reported a failed step (it has
/// exited by then and is reaped here).
void check_setup(const Job& job, int report_fd, pid_t pid) {
  SetupFailure f{};
  ssize_t n;
  do {
    n = ::read(report_fd, &f, sizeof f);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return;  // EOF: the script was exec'd
  reap_blocking(pid);
  std::string what = f.step == 3   ? fmt::format("cannot enter work_dir {}", job.work_dir)
                     : f.step == 4 ? fmt::format("cannot execute {}", job.script)
                                   : std::string(kSteps.at(static_cast<std::size_t>(f.step)));
  fail(job, fmt::format("{}: {}", what, std::strerror(f.err)));
}

}  // namespace

pid_t spawn_job(const Job& job) {
  Environment env(job);
  Fd in(open_job_file(job, "/dev/null", O_RDONLY));
  Fd out(open_capture_file(job, job.work_dir + "/stdout"));
  Fd err(open_capture_file(job, job.work_dir + "/stderr"));
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) fail(job, fmt::format("pipe: {}", std::strerror(errno)));
  Fd report_read(report[0]), report_write(report[1]);

  char* argv[] = {const_cast<char*>(job.script.c_str()), nullptr};
  const ChildSetup setup{job.script.c_str(),  argv, env.envp(), ::getpid(), {in.get(), out.get(), err.get()},
                         job.work_dir.c_str(), report_write.get()};
  // No signal handler of ours may run in the child while it shares our memory: all are blocked
  // around vfork, and the child resets the handled ones to their defaults before unblocking.
  sigset_t all, before;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &before);
  const pid_t pid = ::vfork();
  if (pid == 0) setup.run();
  const int vfork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) fail(job, fmt::format("vfork: {}", std::strerror(vfork_errno)));
  report_write.reset();  // the child held the other write end until it exec'd or exited
  check_setup(job, report_read.get(), pid);
  return pid;
}

}  // namespace sweep::exec
