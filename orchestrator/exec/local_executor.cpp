#include "exec/local_executor.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "exec/exit_watcher.h"
#include "exec/spawn.h"
#include "util/error.h"

namespace sweep::exec {
namespace {

using Clock = std::chrono::steady_clock;

/// A started job whose process has not been reaped yet.
struct Running {
  std::string id;
  pid_t pid = -1;  // also its process-group id
  Clock::time_point started;
  std::optional<Clock::time_point> deadline;  // from timeout_s; none = unlimited
  std::optional<Clock::time_point> kill_at;   // SIGKILL due (set once SIGTERM was sent)
  bool killed = false;                        // SIGKILL sent
  bool timed_out = false;
};

/// Signals the job's whole process group. ESRCH (group already gone) is not an error.
void signal_group(pid_t pgid, int sig) { ::kill(-pgid, sig); }

/// The moment a job started at `start` times out; none for no limit (or one beyond 30 years).
std::optional<Clock::time_point> deadline_after(Clock::time_point start, std::optional<double> timeout_s) {
  if (!timeout_s || !(*timeout_s < 1e9)) return std::nullopt;
  auto limit = std::chrono::duration<double>(std::max(0.0, *timeout_s));
  return start + std::chrono::duration_cast<Clock::duration>(limit);
}

Outcome to_outcome(const Running& job, int status) {
  Outcome o;
  o.id = job.id;
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  o.timed_out = job.timed_out;
  o.elapsed_s = std::chrono::duration<double>(Clock::now() - job.started).count();
  return o;
}

}  // namespace

struct LocalExecutor::Impl {
  Impl(std::size_t parallel, Clock::duration grace) : max_parallel(parallel), kill_grace(grace) {}

  std::size_t max_parallel;
  Clock::duration kill_grace;
  ExitWatcher watcher;
  std::vector<Running> running;
  std::vector<Outcome> finished;  // reaped, not yet returned by wait()

  /// Sends SIGTERM to `job`'s group now and schedules SIGKILL after the grace period.
  void terminate(Running& job, Clock::time_point now) {
    if (job.kill_at) return;
    signal_group(job.pid, SIGTERM);
    job.kill_at = now + kill_grace;
  }

  /// Applies due timeouts (when `timeouts`) and due SIGKILLs. Returns the earliest pending one.
  std::optional<Clock::time_point> enforce(Clock::time_point now, bool timeouts) {
    std::optional<Clock::time_point> next;
    auto consider = [&next](Clock::time_point t) { next = next ? std::min(*next, t) : t; };
    for (Running& job : running) {
      if (timeouts && !job.kill_at && job.deadline && now >= *job.deadline) {
        job.timed_out = true;
        terminate(job, now);
      }
      if (job.kill_at && !job.killed && now >= *job.kill_at) {
        signal_group(job.pid, SIGKILL);
        job.killed = true;
      }
      if (job.kill_at && !job.killed) consider(*job.kill_at);
      if (timeouts && !job.kill_at && job.deadline) consider(*job.deadline);
    }
    return next;
  }

  /// Kills whatever the exited leader `pid` left in its group (race-free: the unreaped zombie keeps
  /// the pgid from being reused), reaps it and records its outcome.
  void finish(pid_t pid) {
    auto it = std::find_if(running.begin(), running.end(), [pid](const Running& r) { return r.pid == pid; });
    if (it == running.end()) return;
    signal_group(pid, SIGKILL);
    int status = watcher.reap(pid);
    finished.push_back(to_outcome(*it, status));
    running.erase(it);
  }

  /// One round: enforce, then wait for exits until `until` or the next due signal; reap them.
  void step(Clock::time_point until, bool timeouts) {
    auto next = enforce(Clock::now(), timeouts);
    for (pid_t pid : watcher.wait_exited(next ? std::min(until, *next) : until)) finish(pid);
  }
};

LocalExecutor::LocalExecutor(std::size_t max_parallel, std::chrono::milliseconds kill_grace)
    : impl_(std::make_unique<Impl>(max_parallel, kill_grace)) {}

LocalExecutor::~LocalExecutor() {
  try {
    cancel_all();
  } catch (...) {
    // Nothing sane to do in a destructor; cancel_all only throws when the kernel refuses ppoll.
  }
}

std::size_t LocalExecutor::capacity() const {
  std::size_t used = active();
  return used >= impl_->max_parallel ? 0 : impl_->max_parallel - used;
}

std::size_t LocalExecutor::active() const { return impl_->running.size() + impl_->finished.size(); }

void LocalExecutor::start(const Job& job) {
  if (capacity() == 0) throw Error(ErrorKind::internal, "LocalExecutor::start called without capacity");
  Running r;
  r.id = job.id;
  r.started = Clock::now();
  r.deadline = deadline_after(r.started, job.timeout_s);
  pid_t pid = spawn_job(job);
  r.pid = pid;
  try {
    impl_->running.push_back(std::move(r));
    impl_->watcher.add(pid);
  } catch (...) {  // out of memory: leave nothing running, as promised
    if (!impl_->running.empty() && impl_->running.back().pid == pid) impl_->running.pop_back();
    signal_group(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw;
  }
}

std::vector<Outcome> LocalExecutor::wait(std::chrono::milliseconds max_wait) {
  auto end = Clock::now() + max_wait;
  if (!impl_->finished.empty()) {
    // Outcomes collected by cancel_all: add whatever else has finished, without blocking.
    if (!impl_->running.empty()) impl_->step(Clock::now(), true);
  } else if (!impl_->running.empty()) {
    do {
      impl_->step(end, true);
    } while (impl_->finished.empty() && !impl_->running.empty() && Clock::now() < end);
  }
  return std::exchange(impl_->finished, {});
}

void LocalExecutor::cancel_all() {
  auto now = Clock::now();
  for (Running& job : impl_->running) impl_->terminate(job, now);
  while (!impl_->running.empty()) impl_->step(Clock::time_point::max(), false);
}

}  // namespace sweep::exec
