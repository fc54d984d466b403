#pragma once
// Runs job scripts as local child processes (the only user of Boost.Process), up to N at a time.
//
// Contract: each job runs `script` in its own process group with cwd = work_dir, stdout and stderr
// redirected to work_dir/stdout and work_dir/stderr (created or truncated), stdin from /dev/null.
// If the controller dies (even by SIGKILL) the job's process group leader is killed too
// (PR_SET_PDEATHSIG), so a resumed campaign never races an orphan. A timed-out job's whole process
// group gets SIGTERM, then SIGKILL after `kill_grace`.
//
// Also guaranteed:
// - When a job's script exits, whatever it left running in its process group is SIGKILLed before
//   the script is reaped, so no stray process outlives its run (processes that left the group, e.g.
//   by setsid, are beyond reach). cancel_all() and the destructor likewise end whole groups.
// - The job starts with an empty signal mask and SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT and
//   SIGCHLD at their defaults, whatever the controller has set up for itself.
// - No thread per job, no polling: wait() sleeps in ppoll(2) on one pidfd per job (Linux >= 5.3)
//   and returns as soon as any job exits. Without pidfds it polls every 5 ms.
//
// Requirements on the caller:
// - PR_SET_PDEATHSIG fires when the *thread* that started the job ends, not the process: call
//   start() from a thread that outlives the jobs (the runner uses its main thread).
// - SIGCHLD must not be ignored (SIG_IGN would auto-reap the jobs), and nothing else in the process
//   may reap them (waitpid(-1, ...)).
// - Timeouts are enforced only inside wait() and cancel_all(): keep calling wait().
// - One thread uses an executor at a time. start() without capacity() throws Error(internal).
#include <chrono>
#include <memory>

#include "exec/executor.h"

namespace sweep::exec {

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(std::size_t max_parallel,
                         std::chrono::milliseconds kill_grace = std::chrono::seconds(2));
  ~LocalExecutor() override;  // cancels and reaps whatever is still active

  std::string name() const override { return "local"; }
  std::size_t capacity() const override;
  void start(const Job& job) override;
  std::size_t active() const override;
  std::vector<Outcome> wait(std::chrono::milliseconds max_wait) override;
  void cancel_all() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sweep::exec
