#include "report/campaign_view.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

#include "report/failure_groups.h"
#include "report/running_runs.h"
#include "util/sinks.h"


namespace sweep::report {
namespace {

std::size_t count_of(const std::vector<store::StateCount>& counts, store::RunState s) {
  for (const auto& c : counts)
    if (c.state == s) return static_cast<std::size_t>(c.count);
  return 0;
}

}  // namespace

std::string campaign_list(const std::vector<CampaignSummary>& campaigns) {
  if (campaigns.empty()) return "no campaigns\n";
  std::size_t width = 5;
  std::set<std::string> systems;  // a system column only where campaigns of several systems meet
  std::size_t system_width = 6;
  // A label or an experiment's name from a database someone sent may hold a line break: each cell is
  // terminal text of one line, so no value forges a row.
  for (const auto& c : campaigns) {
    width = std::max(width, terminal_text(c.campaign.label).size());
    systems.insert(c.campaign.system);
    system_width = std::max(system_width, terminal_text(c.campaign.system).size());
  }
  const auto system = [&](const std::string& name) {
    return systems.size() > 1 ? fmt::format("{:<{}}  ", name.empty() ? "-" : terminal_text(name), system_width) : std::string();
  };
  std::string out = fmt::format("{:<{}}  {}{:<20}  {:<24}  {:>7} {:>9} {:>7} {:>8}\n", "label", width, system("system"),
                                "experiment", "started", "pending", "succeeded", "failed", "running");
  for (const auto& c : campaigns)
    out += fmt::format("{:<{}}  {}{:<20}  {:<24}  {:>7} {:>9} {:>7} {:>8}\n", terminal_text(c.campaign.label), width,
                       system(c.campaign.system), terminal_text(c.campaign.experiment), terminal_text(c.campaign.started_at),
                       count_of(c.counts, store::RunState::pending),
                       count_of(c.counts, store::RunState::succeeded), count_of(c.counts, store::RunState::failed),
                       count_of(c.counts, store::RunState::running));
  return out;
}

namespace {

/// "metric matches per run" with one line per run: `p0001 rep 0 attempt 1: loss 3, elapsed_s 1`.
std::string matches_section(const std::vector<RunMatches>& matches) {
  if (matches.empty()) return "";
  std::string out = "\nmetric matches per run (values each rule found, before its reduce):\n";
  for (const RunMatches& m : matches) {
    std::string counts;
    for (const auto& [name, n] : m.counts) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", name, n);
    out += fmt::format("  {} rep {} attempt {}: {}\n", m.run->point_id, m.run->repetition, m.run->attempt, counts);
  }
  return out;
}

std::string point_table(const CampaignData& data) {
  std::string out = "| point | parameters | succeeded | failed | unfinished |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const auto& r : point_results(data))
    out += fmt::format("| {} | {} | {} | {} | {} |\n", r.point->point_id, point_params_text(*r.point), r.succeeded, r.failed,
                       r.unfinished);
  return out;
}

}  // namespace

std::string campaign_status(const CampaignData& data, std::optional<std::chrono::system_clock::time_point> now) {
  std::map<std::string, std::size_t> states;
  std::map<std::string, std::size_t> classes;
  for (const auto& r : data.runs) {
    ++states[std::string(store::state_name(r.state))];
    if (r.state == store::RunState::failed) ++classes[r.failure_class];
  }
  std::string out = fmt::format("campaign {} ({} executor), {} runs: ", data.campaign.label, data.campaign.executor,
                                data.runs.size());
  // A batch scheduler's queued runs are running to the database (submitted), but not started.
  const std::size_t queued = queued_runs(data);
  states["running"] -= std::min(states["running"], queued);
  for (const char* s : {"succeeded", "failed", "running", "pending"})
    out += fmt::format("{} {}{}{}", s, states[s], std::string_view(s) == "running" && queued ? fmt::format(", queued {}", queued) : "",
                       std::string_view(s) == "pending" ? "" : ", ");
  out += data.campaign.ended_at.empty() ? "\n" : fmt::format("; ended {}\n", data.campaign.ended_at);
  if (!classes.empty()) {
    out += "failures:";
    for (const auto& [cls, n] : classes) out += fmt::format(" {} {}", cls, n);
    out += "\n";
  }
  return out + "\n" + point_table(data) + running_section(running_runs(data, now));
}

/// How many causes of failure `sweep show` details (each with its output's tail).
constexpr std::size_t kShownCauses = 10;

std::string campaign_detail(const CampaignData& data, const store::KeyValues& last_run_provenance,
                            const std::vector<RunMatches>& matches) {
  const auto& c = data.campaign;
  std::string out = fmt::format(
      "campaign     {}\nexperiment   {} ({})\nspec sha256  {}\noverrides    {}\nexecutor     {}\nstarted      {}\n"
      "ended        {}\nsystem       {}\nhost         {}\nuser         {}\nsweep        {}\ngit commit   {}{}\nrun root     {}\n{}\n",
      c.label, c.experiment, c.spec_path, c.spec_hash, c.overrides.empty() ? "none" : c.overrides, c.executor,
      c.started_at, c.ended_at.empty() ? "(unfinished)" : c.ended_at, c.system.empty() ? "(no site name)" : c.system, c.host, c.user, c.tool_version,
      c.git_commit.empty() ? "(not in git)" : c.git_commit, c.git_dirty.value_or(false) ? " (dirty)" : "", c.run_root,
      c.origin_database_id.empty() ? ""
                                   : fmt::format("imported     label \"{}\" of database {} (its runs ran there; the run "
                                                 "root is that system's)\n",
                                                 c.origin_label, c.origin_database_id));
  out += point_table(data);
  bool any_failed = false;
  for (const auto& r : data.runs)
    if (r.state == store::RunState::failed) {
      if (!any_failed) out += "\nfailed runs:\n";
      any_failed = true;
      out += fmt::format("  {} rep {} attempt {}: {}: {} ({})\n", r.point_id, r.repetition, r.attempt, r.failure_class,
                         split_reason(r.failure_reason).headline, r.run_dir);
    }
  if (any_failed) out += "\n" + failure_summary(data.runs, data.points, kShownCauses);
  out += matches_section(matches);
  if (!last_run_provenance.empty()) {
    out += "\nprovenance of the latest run:\n";
    for (const auto& [k, v] : last_run_provenance) {
      std::string value = v;  // multi-line values (scontrol output, node lists) indented under their key
      for (std::size_t i = value.find('\n'); i != std::string::npos; i = value.find('\n', i + 1))
        value.replace(i, 1, "\n" + std::string(19, ' '));
      out += fmt::format("  {:<16} {}\n", k, value);
    }
  }
  return out;
}

}  // namespace sweep::report
