#include "slurm/scheduler.h"

#include "slurm/directives.h"
#include "slurm/states.h"

namespace sweep::slurm {

bool Scheduler::installed() const { return Client::installed(); }

std::string Scheduler::install_hint() const {
  return "executor slurm needs Slurm's commands (sbatch, squeue, ...) in PATH; "
         "scripts/slurm-dev-cluster up starts a development cluster";
}

std::vector<std::string> Scheduler::directives(const std::vector<sched::Resource>& effective) const {
  return sbatch_options(effective);
}

sched::SubmitResult Scheduler::submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) {
  return client_.submit(script, cwd, env);
}
bool Scheduler::submitting_in(const std::string& cwd) const { return Client::submitting_in(cwd); }
std::optional<std::vector<sched::JobRecord>> Scheduler::array_jobs(const std::string& job_id) {
  return client_.array_jobs(job_id);
}
std::optional<std::vector<sched::JobRecord>> Scheduler::own_jobs(const std::vector<std::string>& names) {
  return client_.own_jobs(names);
}
std::optional<std::vector<sched::JobRecord>> Scheduler::accounting(const std::vector<std::string>& job_ids) {
  return client_.accounting(job_ids);
}
std::optional<std::vector<sched::JobUsage>> Scheduler::usage(const std::vector<std::string>& job_ids) {
  return client_.usage(job_ids);
}
std::string Scheduler::expected_start(const std::vector<std::string>& directives) {
  return client_.expected_start(directives);
}
std::vector<sched::JobRecord> Scheduler::completions() { return client_.completions(); }
bool Scheduler::cancel(const std::vector<std::string>& job_ids) { return client_.cancel(job_ids); }
sched::Limits Scheduler::limits() { return client_.limits(); }
sched::StateInfo Scheduler::state_info(std::string_view state) const { return slurm::state_info(state); }
bool Scheduler::hopeless_reason(std::string_view reason) const { return slurm::hopeless_reason(reason); }
bool Scheduler::dependency_never_satisfied(std::string_view reason) const {
  return slurm::dependency_never_satisfied(reason);
}

std::unique_ptr<sched::Scheduler> make_scheduler() { return std::make_unique<Scheduler>(); }

}  // namespace sweep::slurm
