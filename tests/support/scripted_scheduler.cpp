#include "support/scripted_scheduler.h"

#include <fmt/core.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "slurm/directives.h"
#include "slurm/states.h"

namespace sweep::testing {

Step pending(std::string reason, int restarts) { return Step{"PENDING", std::move(reason), restarts, false, {}}; }
Step started(int restarts) { return Step{"RUNNING", "None", restarts, true, {}}; }
Step ran(int restarts) { return Step{"", "None", restarts, true, {}}; }
Step ended(std::string state, std::optional<int> exit_code, int restarts) {
  return Step{std::move(state), "None", restarts, false, exit_code};
}

namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The value of `#SBATCH --<option>=` in the array script.
std::string directive(const std::string& script, const std::string& option) {
  std::ifstream in(script);
  const std::string prefix = "#SBATCH --" + option + "=";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return "";
}

bool finished(const std::optional<Step>& s) { return s && slurm::state_info(s->state).phase == sched::Phase::finished; }

/// The double the driver owns: every call forwards to the test's cluster, Slurm's tables answer the rest.
class ScriptedScheduler final : public sched::Scheduler {
 public:
  explicit ScriptedScheduler(ScriptedCluster& c) : c_(c) {}
  std::string_view name() const override { return "slurm"; }
  std::string_view controller() const override { return "slurmctld"; }
  std::string_view submit_command() const override { return "sbatch"; }
  bool installed() const override { return true; }
  std::string install_hint() const override { return ""; }
  std::vector<std::string> directives(const std::vector<sched::Resource>& effective) const override {
    return slurm::sbatch_options(effective);
  }
  std::string_view directive_prefix() const override { return "#SBATCH"; }
  sched::SubmitResult submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) override {
    ++c_.calls;
    return c_.submit(script, cwd, env);
  }
  bool submitting_in(const std::string&) const override { return false; }
  std::optional<std::vector<sched::JobRecord>> array_jobs(const std::string& job_id) override {
    ++c_.calls;
    return c_.array_jobs(job_id);
  }
  std::optional<std::vector<sched::JobRecord>> own_jobs(const std::vector<std::string>& names) override {
    ++c_.calls;
    return c_.own_jobs(names);
  }
  std::optional<std::vector<sched::JobRecord>> accounting(const std::vector<std::string>& ids) override {
    ++c_.calls;
    return c_.accounting(ids);
  }
  std::optional<std::vector<sched::JobUsage>> usage(const std::vector<std::string>& ids) override {
    ++c_.usage_calls;
    return c_.usage(ids);
  }
  std::vector<sched::JobRecord> completions() override { return c_.completions(); }
  bool cancel(const std::vector<std::string>& ids) override {
    ++c_.calls;
    return c_.cancel(ids);
  }
  sched::Limits limits() override { return c_.limits; }
  sched::StateInfo state_info(std::string_view state) const override { return slurm::state_info(state); }
  bool hopeless_reason(std::string_view reason) const override { return slurm::hopeless_reason(reason); }
  bool dependency_never_satisfied(std::string_view reason) const override {
    return slurm::dependency_never_satisfied(reason);
  }
  std::size_t calls() const override { return c_.calls; }
  std::size_t queries() const override { return c_.queries(); }

 private:
  ScriptedCluster& c_;
};

}  // namespace

std::unique_ptr<sched::Scheduler> ScriptedCluster::scheduler() { return std::make_unique<ScriptedScheduler>(*this); }

std::size_t ScriptedCluster::queued_tasks() const {
  std::size_t n = 0;
  for (const auto& a : arrays)
    for (const auto& t : a.tasks) n += !finished(t.now);
  return n;
}

void ScriptedCluster::queue(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) {
  Array a{std::to_string(1000 + arrays.size()), directive(script, "job-name"), script, cwd, env, {}};
  std::string range = directive(script, "array");
  range = range.substr(0, range.find('%'));
  for (int id : sched::expand_task_ids(range)) {
    std::vector<Step> steps = plan ? plan(arrays.size(), id) : std::vector<Step>{};
    if (steps.empty()) steps = {started(), ended()};
    a.tasks.push_back(Task{id, std::move(steps), 0, std::nullopt, 0, 0});
  }
  arrays.push_back(std::move(a));
}

sched::SubmitResult ScriptedCluster::submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) {
  ++submits;
  queued_at_submit.push_back(queued_tasks());
  SubmitAnswer answer = SubmitAnswer::accept;
  if (!answers.empty()) {
    answer = answers.front();
    answers.pop_front();
  }
  const std::size_t tasks = sched::expand_task_ids(directive(script, "array").substr(0, directive(script, "array").find('%'))).size();
  if (answer == SubmitAnswer::accept && submit_limit && queued_tasks() + tasks > *submit_limit) answer = SubmitAnswer::limit;
  switch (answer) {
    case SubmitAnswer::accept:
      queue(script, cwd, env);
      return {arrays.back().job_id, "", false, false};
    case SubmitAnswer::limit:
      return {"", "sbatch: error: AssocMaxSubmitJobLimit", false, true};
    case SubmitAnswer::refuse:
      return {"", "sbatch: error: invalid partition specified: nowhere", false, false};
    case SubmitAnswer::transient_accepted:
      queue(script, cwd, env);
      return {"", "sbatch: error: Socket timed out on send/recv operation", true, false};
    case SubmitAnswer::transient_lost:
      return {"", "sbatch: error: Socket timed out on send/recv operation", true, false};
    case SubmitAnswer::crash_after:
      queue(script, cwd, env);
      throw ControllerKilled();
    case SubmitAnswer::crash_before:
      throw ControllerKilled();
  }
  return {};
}

bool ScriptedCluster::unreachable_now() {
  if (stop && queries() >= max_queries) *stop = true;
  if (unreachable_polls == 0) return false;
  --unreachable_polls;
  return true;
}

ScriptedCluster::Array* ScriptedCluster::find(const std::string& job_id) {
  for (auto& a : arrays)
    if (a.job_id == job_id) return &a;
  return nullptr;
}

/// Runs the array script of task `t` for real, as slurmd would: bash, in the submission's directory,
/// its output where the script's --output says (task-<t>/slurm-<array>_<t>.out). Without SLURM_CONF: no
/// controller stands behind this double, and the script's own `scontrol show job` (provenance) must not
/// ask whichever cluster the test's environment names (one that is down makes scontrol retry for 60 s).
void ScriptedCluster::start(const Array& a, Task& t, int restarts) {
  std::string env = fmt::format("SLURM_ARRAY_TASK_ID={} SLURM_JOB_ID={}_{} SLURM_ARRAY_JOB_ID={} SLURM_JOB_NAME={}", t.id,
                                a.job_id, t.id, a.job_id, quoted(a.name));
  if (restarts > 0) env += fmt::format(" SLURM_RESTART_COUNT={}", restarts);
  for (const auto& [name, value] : a.env) env += " " + name + "=" + quoted(value);
  const std::string out = fmt::format("{}/task-{}/slurm-{}_{}.out", a.cwd, t.id, a.job_id, t.id);
  const int status = std::system(fmt::format("cd {} && env -u SLURM_CONF {} bash {} >> {} 2>&1 < /dev/null", quoted(a.cwd), env,
                                             quoted(a.script), quoted(out)).c_str());
  t.last_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  ++t.starts;
}

void ScriptedCluster::advance(Array& a, Task& t) {
  if (finished(t.now) || t.next >= t.steps.size()) return;
  Step s = t.steps[t.next++];
  if (s.start) start(a, t, s.restarts);
  if (s.state.empty()) s.state = t.last_exit == 0 ? "COMPLETED" : "FAILED";
  if (!s.exit_code && slurm::state_info(s.state).phase == sched::Phase::finished) s.exit_code = t.last_exit;
  t.now = s;
}

std::vector<sched::JobRecord> ScriptedCluster::records(const Array& a, bool ended_only) const {
  std::vector<sched::JobRecord> out;
  for (const auto& t : a.tasks) {
    if (ended_only && !finished(t.now)) continue;
    const Step s = t.now.value_or(pending("Priority"));
    sched::JobRecord r;
    r.job_id = fmt::format("{}_{}", a.job_id, t.id);
    r.array_job_id = a.job_id;
    r.array_tasks = std::to_string(t.id);
    r.name = a.name;
    r.state = s.state;
    r.reason = s.reason;
    r.exit_code = s.exit_code;
    r.signal = s.exit_code ? std::optional<int>(0) : std::nullopt;
    r.node_list = t.starts > 0 ? "fake1" : "";
    r.partition = "debug";
    r.elapsed_s = finished(t.now) ? std::optional<double>(1.0) : std::nullopt;
    r.restarts = s.restarts;
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<std::vector<sched::JobRecord>> ScriptedCluster::array_jobs(const std::string& job_id) {
  ++array_queries;
  if (unreachable_now()) return std::nullopt;
  Array* a = find(job_id);
  if (!a) return std::vector<sched::JobRecord>{};
  for (auto& t : a->tasks) advance(*a, t);
  return records(*a, false);
}

std::optional<std::vector<sched::JobRecord>> ScriptedCluster::own_jobs(const std::vector<std::string>& names) {
  ++name_queries;
  if (unreachable_now()) return std::nullopt;
  std::vector<sched::JobRecord> out;
  for (auto& a : arrays)
    for (const auto& n : names)
      if (a.name == n) {
        for (auto& t : a.tasks) advance(a, t);
        for (auto& r : records(a, false)) out.push_back(std::move(r));
      }
  return out;
}

std::optional<std::vector<sched::JobRecord>> ScriptedCluster::accounting(const std::vector<std::string>& job_ids) {
  if (!accounting_enabled) return std::nullopt;
  std::vector<sched::JobRecord> out;
  if (accounting_lag > 0 && !job_ids.empty()) {  // slurmdbd behind slurmctld: the ends are not stored yet
    --accounting_lag;
    return out;
  }
  for (const auto& id : job_ids)
    if (const Array* a = find(id))
      for (auto& r : records(*a, true)) out.push_back(std::move(r));
  return out;
}

std::optional<std::vector<sched::JobUsage>> ScriptedCluster::usage(const std::vector<std::string>& job_ids) {
  if (!accounting_enabled) return std::nullopt;
  std::vector<sched::JobUsage> out;
  for (const auto& u : usage_records)
    if (std::find(job_ids.begin(), job_ids.end(), u.array_job_id) != job_ids.end()) out.push_back(u);
  return out;
}

std::vector<sched::JobRecord> ScriptedCluster::completions() {
  std::vector<sched::JobRecord> out;
  if (!completions_enabled) return out;
  for (const auto& a : arrays)
    for (auto& r : records(a, true)) out.push_back(std::move(r));
  return out;
}

bool ScriptedCluster::cancel(const std::vector<std::string>& job_ids) {
  for (const auto& id : job_ids) {
    cancelled.push_back(id);
    const auto sep = id.find('_');
    Array* a = find(id.substr(0, sep));
    if (!a) continue;
    for (auto& t : a->tasks)
      if (!finished(t.now) && (sep == std::string::npos || std::to_string(t.id) == id.substr(sep + 1)))
        t.now = Step{"CANCELLED", "None", t.now ? t.now->restarts : 0, false, 0};
  }
  return true;
}

}  // namespace sweep::testing
