#pragma once
// Runs job scripts as local child processes (the only user of Boost.Process), up to N at a time.
//
// Contract: each job runs `script` in its own process group with cwd = work_dir, stdout and stderr
// redirected to work_dir/stdout and work_dir/stderr (created or truncated), stdin from /dev/null.
// If the controller dies (even by SIGKILL) the job's process group leader is killed too
// (PR_SET_PDEATHSIG), so a resumed campaign never races an orphan. A timed-out job's whole process
// group gets SIGTERM, then SIGKILL after `kill_grace`.
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
