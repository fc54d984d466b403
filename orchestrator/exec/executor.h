#pragma once
// The executor seam: how a finished job script is started and watched on this machine. exec/ never
// sees a spec; it receives scripts and reports outcomes. Implementation: LocalExecutor
// (exec/local_executor.h). A batch scheduler enters through sched::Scheduler instead (sched/scheduler.h).
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sweep::exec {

struct Job {
  std::string id;          // the caller's key, returned in the Outcome; opaque to the executor
  std::string script;      // absolute path of an executable job script
  std::string work_dir;    // absolute run directory: the script's cwd; receives "stdout" and "stderr"
  std::optional<double> timeout_s;  // wall-clock limit; none = unlimited
  std::vector<std::pair<std::string, std::string>> env;  // added to (or replacing in) the inherited environment
};

struct Outcome {
  std::string id;
  int exit_code = -1;      // the exit status when the process exited normally, else -1
  int signal = 0;          // the terminating signal, 0 when it exited normally
  bool timed_out = false;  // true when the executor killed it for exceeding timeout_s
  double elapsed_s = 0;    // from start to reaping, monotonic clock
};

class Executor {
 public:
  virtual ~Executor() = default;
  /// The executor's name as written in experiments ("local").
  virtual std::string name() const = 0;
  /// How many more jobs start() accepts right now.
  virtual std::size_t capacity() const = 0;
  /// Starts a job. Precondition: capacity() > 0. Throws sweep::Error(io) when it cannot be started;
  /// then nothing is left running.
  virtual void start(const Job& job) = 0;
  /// Number of started jobs whose Outcome has not been returned yet.
  virtual std::size_t active() const = 0;
  /// Blocks until at least one job finishes or `max_wait` passes, and returns the outcomes of every
  /// job that finished, each exactly once. Enforces timeouts while waiting. Returns at once with an
  /// empty vector when nothing is active.
  virtual std::vector<Outcome> wait(std::chrono::milliseconds max_wait) = 0;
  /// Terminates every active job (SIGTERM to its process group, then SIGKILL after a grace period)
  /// and reaps them; their outcomes are returned by the next wait().
  virtual void cancel_all() = 0;
};

}  // namespace sweep::exec
