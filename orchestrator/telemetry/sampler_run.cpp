#include "telemetry/sampler_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include "telemetry/log_file.h"
#include "telemetry/log_writer.h"
#include "telemetry/proc_stat.h"
#include "telemetry/sampler.h"
#include "util/error.h"
#include "util/exit_codes.h"

namespace sweep::telemetry {
namespace {

volatile sig_atomic_t g_stop = 0;
void on_stop_signal(int) { g_stop = 1; }

double seconds(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// SIGTERM and SIGINT blocked (delivered only while waiting: no stop is lost between a check and the
/// wait), their handler installed. Returns the mask to wait with.
sigset_t block_stop_signals() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigset_t previous;
  ::sigprocmask(SIG_BLOCK, &stop_signals, &previous);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGINT, &action, nullptr);
  sigdelset(&previous, SIGTERM);
  sigdelset(&previous, SIGINT);
  return previous;
}

/// Waits until `deadline` (CLOCK_MONOTONIC seconds) or a stop signal.
void wait_until(double deadline, const sigset_t& wait_mask) {
  while (!g_stop) {
    const double left = deadline - seconds(CLOCK_MONOTONIC);
    if (left <= 0) return;
    timespec ts{static_cast<time_t>(left), static_cast<long>((left - std::floor(left)) * 1e9)};
    ::ppoll(nullptr, 0, &ts, &wait_mask);
  }
}

/// The identity of process `pid` (its start time), or nullopt when it is gone or a zombie.
std::optional<std::uint64_t> live_start_time(const std::string& proc_root, int pid) {
  std::ifstream in(proc_root + "/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  const auto st = parse_proc_stat(line);
  if (!st || st->state == 'Z' || st->state == 'X') return std::nullopt;
  return st->starttime;
}

/// How often a sampler with --root looks whether its root is still there, whatever the interval.
constexpr double kRootCheckS = 1.0;

/// One sampling session: the file and the sources opened, the header and the first sample (t = 0)
/// written by the constructor; loop() samples until a stop signal, then writes a last sample and `end`.
/// With --root, it also ends when the root process is gone (the job script was killed, and with it
/// whoever would have stopped the sampler): a last sample and no `end`, so the file reads as cut short.
/// A daemon is never left behind by a job that died.
class Session {
 public:
  Session(const SamplerOptions& options, const SamplerEnvironment& environment)
      : file_(options.out),
        sampler_(options, environment),
        interval_s_(options.interval_ms / 1000.0),
        proc_root_(environment.proc_root),
        root_pid_(options.root_pid) {
    if (root_pid_ > 0) root_start_ = live_start_time(proc_root_, root_pid_);
    const double epoch_s = seconds(CLOCK_REALTIME);
    t0_ = seconds(CLOCK_MONOTONIC);
    file_.append(sampler_.header(epoch_s) + sampler_.sample(0));
  }

  void loop(const sigset_t& wait_mask) {
    for (double k = 1; !g_stop; ++k) {
      const double now = seconds(CLOCK_MONOTONIC);
      if (t0_ + k * interval_s_ < now) k = std::ceil((now - t0_) / interval_s_);  // behind: the next slot
      const double due = t0_ + k * interval_s_;
      while (!g_stop && seconds(CLOCK_MONOTONIC) < due && !root_gone())
        wait_until(std::min(due, seconds(CLOCK_MONOTONIC) + kRootCheckS), wait_mask);
      if (g_stop) break;
      if (root_gone()) {
        file_.append(sampler_.sample(seconds(CLOCK_MONOTONIC) - t0_));
        return;
      }
      file_.append(sampler_.sample(seconds(CLOCK_MONOTONIC) - t0_));
    }
    const double t = seconds(CLOCK_MONOTONIC) - t0_;
    file_.append(sampler_.sample(t) + end_record(t));
  }

 private:
  bool root_gone() const { return root_pid_ > 0 && live_start_time(proc_root_, root_pid_) != root_start_; }

  LogFile file_;
  Sampler sampler_;
  double interval_s_;
  double t0_ = 0;
  std::string proc_root_;
  int root_pid_ = 0;
  std::optional<std::uint64_t> root_start_;  // the root's identity when the session began
};

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

/// The daemon child: starts the session, detaches from the launcher's stdin, stdout and stderr (so
/// that `pid=$(sweep-telemetry --daemon ...)` returns), tells the launcher "ok" through `report_fd`
/// (or the error that stopped it), then samples. Never returns.
/// The child stays in the launcher's process group: a job's group signal (the local executor's timeout,
/// a terminal's ^C on a job script run by hand) reaches it and ends it with `end`.
[[noreturn]] void daemon_child(const SamplerOptions& options, int report_fd, const sigset_t& wait_mask) {
  std::optional<Session> session;
  try {
    session.emplace(options, current_environment());
  } catch (const Error& e) {
    write_all(report_fd, e.message());
    ::_exit(exit_code_for(e.kind()));
  }
  const int null_fd = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd <= 2; ++fd) ::dup2(null_fd, fd);
  if (null_fd > 2) ::close(null_fd);
  write_all(report_fd, "ok");
  ::close(report_fd);
  try {
    session->loop(wait_mask);
  } catch (const Error& e) {
    ::_exit(exit_code_for(e.kind()));
  }
  session.reset();
  ::_exit(0);
}

/// The launcher: waits (at most --start-timeout-ms: NVML's init on a GPU in a bad state can hang; then
/// the child is killed and the job goes on without telemetry) for the child's word; "ok" prints its pid. Its
/// own stop signals act as usual: a job killed while it waits is not held up by it.
int daemon_launcher(pid_t child, int report_fd, const sigset_t& launch_mask, int timeout_ms) {
  struct sigaction plain {};
  plain.sa_handler = SIG_DFL;
  ::sigaction(SIGTERM, &plain, nullptr);
  ::sigaction(SIGINT, &plain, nullptr);
  ::sigprocmask(SIG_SETMASK, &launch_mask, nullptr);
  std::string word;
  char buffer[512];
  const double deadline = seconds(CLOCK_MONOTONIC) + timeout_ms / 1000.0;
  for (;;) {
    const double left = deadline - seconds(CLOCK_MONOTONIC);
    pollfd p{report_fd, POLLIN, 0};
    const int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(left * 1000) + 1) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
      std::fprintf(stderr, "sweep-telemetry: no first sample within %d ms (a source hung at start): stopped\n",
                   timeout_ms);
      return exit_code_for(ErrorKind::io);
    }
    const ssize_t n = ::read(report_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    word.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(report_fd);
  if (word == "ok") {
    std::printf("%d\n", static_cast<int>(child));
    return 0;
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  std::fprintf(stderr, "sweep-telemetry: %s\n", word.empty() ? "the sampler ended before its first sample" : word.c_str());
  return WIFEXITED(status) && WEXITSTATUS(status) != 0 ? WEXITSTATUS(status) : exit_code_for(ErrorKind::io);
}

}  // namespace

int run_sampler(const SamplerOptions& options) {
  sigset_t launch_mask;
  ::sigprocmask(SIG_SETMASK, nullptr, &launch_mask);
  const sigset_t wait_mask = block_stop_signals();
  if (!options.daemon) {
    Session session(options, current_environment());
    session.loop(wait_mask);
    return 0;
  }
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) throw Error(ErrorKind::io, std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw Error(ErrorKind::io, std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    ::close(report[0]);
    daemon_child(options, report[1], wait_mask);
  }
  ::close(report[1]);
  return daemon_launcher(child, report[0], launch_mask, options.start_timeout_ms);
}

}  // namespace sweep::telemetry
