#pragma once
// Slurm behind the scheduler seam (sched/scheduler.h): its commands (slurm/client.h), its state and
// pending-reason tables (slurm/states.h) and its `#SBATCH` directives (slurm/directives.h).
#include <memory>

#include "sched/scheduler.h"
#include "slurm/client.h"

namespace sweep::slurm {

class Scheduler final : public sched::Scheduler {
 public:
  std::string_view name() const override { return "slurm"; }
  std::string_view controller() const override { return "slurmctld"; }
  std::string_view submit_command() const override { return "sbatch"; }
  bool installed() const override;
  std::string install_hint() const override;
  std::vector<std::string> directives(const std::vector<sched::Resource>& effective) const override;
  std::string_view directive_prefix() const override { return "#SBATCH"; }
  sched::SubmitResult submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) override;
  bool submitting_in(const std::string& cwd) const override;
  std::optional<std::vector<sched::JobRecord>> array_jobs(const std::string& job_id) override;
  std::optional<std::vector<sched::JobRecord>> own_jobs(const std::vector<std::string>& names) override;
  std::optional<std::vector<sched::JobRecord>> accounting(const std::vector<std::string>& job_ids) override;
  std::optional<std::vector<sched::JobUsage>> usage(const std::vector<std::string>& job_ids) override;
  std::string expected_start(const std::vector<std::string>& directives) override;
  std::vector<sched::JobRecord> completions() override;
  bool cancel(const std::vector<std::string>& job_ids) override;
  sched::Limits limits() override;
  sched::StateInfo state_info(std::string_view state) const override;
  bool hopeless_reason(std::string_view reason) const override;
  bool dependency_never_satisfied(std::string_view reason) const override;
  std::size_t calls() const override { return client_.calls(); }
  std::size_t queries() const override { return client_.queries(); }

 private:
  Client client_;
};

/// A new Slurm scheduler (runner/executors.cpp's factory).
std::unique_ptr<sched::Scheduler> make_scheduler();

}  // namespace sweep::slurm
