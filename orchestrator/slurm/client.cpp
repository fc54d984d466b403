#include "slurm/client.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include "exec/capture.h"
#include "exec/orphans.h"
#include "slurm/expected_start.h"
#include "util/strings.h"

namespace sweep::slurm {
namespace {

constexpr const char* kSbatch = "sbatch";

// Messages of Slurm's clients when slurmctld (or slurmdbd) is down, restarting or overloaded.
constexpr std::array<std::string_view, 8> kTransientMessages{
    "Unable to contact slurm controller", "Socket timed out",       "temporarily unable",
    "Connection refused",                 "Zero Bytes were transmitted", "Communication connection failure",
    "Resource temporarily unavailable",   "slurmctld is not responding"};

/// A failed command's message, with a hint for the commonest mistake: no SLURM_CONF on a machine
/// without a configured /etc/slurm.
/// A positive count, or `fallback` for anything else ("", "N/A", "UNLIMITED", garbage).
std::size_t count_or(std::string_view text, std::size_t fallback) {
  const auto v = sched::parse_count(text);
  return v && *v > 0 ? *v : fallback;
}

/// Whether sbatch refused a job for a per-user submit limit (association or QOS).
bool submit_limit_reached(std::string_view message) {
  return message.find("MaxSubmitJob") != std::string_view::npos || message.find("job submit limit") != std::string_view::npos;
}

std::string message_of(const exec::Captured& c) {
  std::string m(trim(c.err.empty() ? c.out : c.err));
  if (m.find("Could not establish a configuration source") != std::string::npos)
    m += " (is SLURM_CONF set? `scripts/slurm-dev-cluster up` prints the one of the development cluster)";
  return m;
}

}  // namespace

bool transient_error(std::string_view message) {
  for (std::string_view m : kTransientMessages)
    if (message.find(m) != std::string_view::npos) return true;
  return false;
}

Client::Client(std::chrono::milliseconds timeout) : timeout_(timeout) {}

bool Client::installed() {
  // Only whether it can be started: without a configuration even `sbatch --version` fails, and that
  // message is better seen from the submission itself.
  return exec::capture({"sbatch", "--version"}, "", std::chrono::seconds(10)).has_value();
}

SubmitResult Client::submit(const std::string& script, const std::string& cwd, const sched::EnvPairs& env) {
  ++calls_;
  const auto c = exec::capture({kSbatch, "--parsable", script}, cwd, timeout_, env);
  if (!c) return {"", "sbatch cannot be started (is Slurm installed and in PATH?)", false, false};
  if (c->timed_out) return {"", "sbatch did not answer in time", true, false};
  if (c->exit_code != 0) return {"", message_of(*c), transient_error(c->err), submit_limit_reached(c->err)};
  const std::string first = std::string(trim(c->out.substr(0, c->out.find_first_of(";\n"))));
  if (first.empty() || first.find_first_not_of("0123456789") != std::string::npos)
    return {"", "sbatch printed no job id: " + std::string(trim(c->out)), false, false};
  return {first, "", false, false};
}

std::string Client::expected_start(const std::vector<std::string>& directives) {
  ++calls_;
  std::vector<std::string> argv{kSbatch, "--test-only"};
  argv.insert(argv.end(), directives.begin(), directives.end());
  argv.insert(argv.end(), {"--wrap", "true"});
  const auto c = exec::capture(argv, "", timeout_);
  if (!c || c->timed_out) return "";
  if (c->exit_code != 0) {  // its last line says why ("allocation failure: Requested node configuration ...")
    const std::string why(trim(c->err.substr(0, c->err.find_last_not_of("\n") + 1)));
    return "refused: " + why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
  }
  return parse_test_only(c->err).value_or("");
}

bool Client::submitting_in(const std::string& cwd) { return exec::processes_in(cwd, kSbatch) > 0; }

std::string current_user() {
  if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_name) return pw->pw_name;
  return std::to_string(getuid());
}

std::optional<std::vector<JobRecord>> Client::array_jobs(const std::string& job_id) {
  ++calls_;
  ++queries_;
  // One job id: squeue then asks slurmctld for that job only (slurm_load_job); with several ids it
  // would fetch every job of the cluster and filter on this side.
  const auto c = exec::capture({"squeue", "-h", "-t", "all", "-j", job_id, "-O", std::string(kSqueueFormat)}, "", timeout_);
  if (!c || c->timed_out) return std::nullopt;
  if (c->exit_code != 0) {
    if (c->err.find("Invalid job id") != std::string::npos) return std::vector<JobRecord>{};  // aged out
    return std::nullopt;
  }
  return parse_squeue(c->out);
}

std::optional<std::vector<JobRecord>> Client::own_jobs(const std::vector<std::string>& names) {
  if (names.empty()) return std::vector<JobRecord>{};
  ++calls_;
  ++queries_;
  // One user and no job list: squeue then asks slurmctld for that user's jobs only (with a job list
  // or several users it would fetch every job and filter here). -n filters on this side.
  const auto c = exec::capture({"squeue", "-h", "-t", "all", "-u", current_user(), "-n", join(names, ","),
                                "-O", std::string(kSqueueFormat)},
                               "", timeout_);
  if (!c || c->exit_code != 0) return std::nullopt;
  return parse_squeue(c->out);
}

ClusterConfig parse_config(std::string_view text) {
  ClusterConfig cfg;
  cfg.limits.from_cluster = true;  // the cluster answered: its own limits, or Slurm's defaults where it names none
  std::string type;
  for (const std::string& line : split(text, '\n')) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key(trim(std::string_view(line).substr(0, eq)));
    const std::string value(trim(std::string_view(line).substr(eq + 1)));
    if (key == "AccountingStorageType") cfg.accounting = value.find("slurmdbd") != std::string::npos;
    if (key == "JobCompType") type = value;
    if (key == "JobCompLoc") cfg.jobcomp_file = value;
    if (key == "MaxArraySize") cfg.limits.max_array_tasks = count_or(value, cfg.limits.max_array_tasks);
    if (key == "MaxJobCount") cfg.limits.max_job_count = count_or(value, cfg.limits.max_job_count);
  }
  if (type.find("filetxt") == std::string::npos) cfg.jobcomp_file.clear();
  return cfg;
}

std::optional<std::size_t> parse_max_submit(std::string_view text) {
  std::optional<std::size_t> out;
  for (const std::string& line : split(text, '\n')) {
    const std::size_t n = count_or(trim(line), 0);
    if (n > 0) out = out ? std::min(*out, n) : n;
  }
  return out;
}

const ClusterConfig* Client::config() {
  if (config_) return &*config_;
  ++calls_;
  const auto c = exec::capture({"scontrol", "show", "config"}, "", timeout_);
  if (!c || c->exit_code != 0) return nullptr;
  config_ = parse_config(c->out);
  return &*config_;
}

Limits Client::limits() {
  if (limits_) return *limits_;
  const ClusterConfig* cfg = config();
  if (!cfg) return Limits{};  // asked again next time
  Limits l = cfg->limits;
  if (cfg->accounting) {
    ++calls_;
    const auto c = exec::capture({"sacctmgr", "-n", "-P", "show", "assoc", "where", "user=" + current_user(),
                                  "format=MaxSubmit"},
                                 "", timeout_);
    if (c && c->exit_code == 0) l.max_submit_jobs = parse_max_submit(c->out);
  }
  limits_ = l;
  return l;
}

std::optional<std::vector<JobRecord>> Client::accounting(const std::vector<std::string>& job_ids) {
  const ClusterConfig* cfg = config();
  if (!cfg || !cfg->accounting || job_ids.empty()) return std::nullopt;
  ++calls_;
  const auto c = exec::capture({"sacct", "-n", "-P", "-X", "--format=" + std::string(kSacctFormat), "-j",
                                join(job_ids, ",")},
                               "", timeout_);
  if (!c || c->exit_code != 0) return std::nullopt;
  return parse_sacct(c->out);
}

std::optional<std::vector<sched::JobUsage>> Client::usage(const std::vector<std::string>& job_ids) {
  const ClusterConfig* cfg = config();
  if (!cfg || !cfg->accounting || job_ids.empty()) return std::nullopt;
  ++calls_;
  const auto c = exec::capture(
      {"sacct", "-n", "-P", "--format=" + std::string(kSacctUsageFormat), "-j", join(job_ids, ",")}, "", timeout_);
  if (!c || c->exit_code != 0) return std::nullopt;
  return parse_sacct_usage(c->out);
}

std::vector<JobRecord> Client::completions() {
  const ClusterConfig* cfg = config();
  if (!cfg || cfg->jobcomp_file.empty()) return {};
  std::ifstream in(cfg->jobcomp_file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_jobcomp(text.str());
}

bool Client::cancel(const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return true;
  ++calls_;
  std::vector<std::string> argv{"scancel"};
  argv.insert(argv.end(), job_ids.begin(), job_ids.end());
  const auto c = exec::capture(argv, "", timeout_);
  return c && c->exit_code == 0;
}

}  // namespace sweep::slurm
