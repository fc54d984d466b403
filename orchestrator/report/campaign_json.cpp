#include "report/campaign_json.h"

#include <fmt/core.h>

#include <map>

#include "report/running_runs.h"
#include "util/escape.h"
#include "util/value.h"

namespace sweep::report {
namespace {

std::string runs_object(const std::map<std::string, std::size_t>& counts) {
  std::string out;
  for (const char* s : {"pending", "running", "succeeded", "failed"}) {
    const auto it = counts.find(s);
    out += fmt::format(R"({}"{}": {})", out.empty() ? "" : ", ", s, it == counts.end() ? 0 : it->second);
  }
  return "{" + out + "}";
}

std::string typed(const store::ParamRecord& p) {
  const Value v = value_from_text(p.value, type_from_name(p.type));
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  if (v.is_int()) return std::to_string(v.as_int());
  if (v.is_real()) return json_number(v.as_real());
  return json_string(v.as_string());
}

/// The members shared by status and show (without braces).
std::string status_members(const CampaignData& data) {
  std::map<std::string, std::size_t> states, classes;
  for (const auto& r : data.runs) {
    ++states[std::string(store::state_name(r.state))];
    if (r.state == store::RunState::failed) ++classes[r.failure_class];
  }
  std::string failures, points;
  for (const auto& [cls, n] : classes) failures += fmt::format("{}{}: {}", failures.empty() ? "" : ", ", json_string(cls), n);
  for (const auto& r : point_results(data)) {
    std::string params;
    for (const auto& p : r.point->params) params += fmt::format("{}{}: {}", params.empty() ? "" : ", ", json_string(p.name), typed(p));
    points += fmt::format(R"({}{{"point_id": {}, "params": {{{}}}, "succeeded": {}, "failed": {}, "unfinished": {}}})",
                          points.empty() ? "" : ", ", json_string(r.point->point_id), params, r.succeeded, r.failed,
                          r.unfinished);
  }
  const auto& c = data.campaign;
  return fmt::format(R"("version": {}, "campaign": {}, "executor": {}, "ended_at": {}, "runs": {}, "failures": {{{}}}, "points": [{}])",
                     kCampaignJsonVersion, json_string(c.label), json_string(c.executor),
                     c.ended_at.empty() ? "null" : json_string(c.ended_at), runs_object(states), failures, points);
}

/// The "run_matches" array's elements (without brackets).
std::string run_matches_members(const std::vector<RunMatches>& matches) {
  std::string out;
  for (const RunMatches& m : matches) {
    std::string counts;
    for (const auto& [name, n] : m.counts) counts += fmt::format("{}{}: {}", counts.empty() ? "" : ", ", json_string(name), n);
    out += fmt::format(R"({}{{"point_id": {}, "repetition": {}, "attempt": {}, "matches": {{{}}}}})", out.empty() ? "" : ", ",
                       json_string(m.run->point_id), m.run->repetition, m.run->attempt, counts);
  }
  return out;
}

}  // namespace

/// Where an imported campaign came from (docs/forecasts.md): {"database_id", "label"}; null for a local one.
static std::string origin_json(const store::CampaignRecord& c) {
  if (c.origin_database_id.empty()) return "null";
  return fmt::format(R"({{"database_id": {}, "label": {}}})", json_string(c.origin_database_id), json_string(c.origin_label));
}

std::string campaign_list_json(const std::vector<CampaignSummary>& campaigns) {
  std::string out = fmt::format(R"({{"version": {}, "campaigns": [)", kCampaignJsonVersion);
  for (std::size_t i = 0; i < campaigns.size(); ++i) {
    const auto& c = campaigns[i].campaign;
    std::map<std::string, std::size_t> counts;
    for (const auto& s : campaigns[i].counts) counts[std::string(store::state_name(s.state))] = static_cast<std::size_t>(s.count);
    out += fmt::format(R"({}{{"label": {}, "experiment": {}, "executor": {}, "started_at": {}, "ended_at": {}, "runs": {}, )"
                       R"("system": {}, "origin": {}}})",
                       i ? ", " : "", json_string(c.label), json_string(c.experiment), json_string(c.executor),
                       json_string(c.started_at), c.ended_at.empty() ? "null" : json_string(c.ended_at), runs_object(counts),
                       json_string(c.system), origin_json(c));
  }
  return out + "]}\n";
}

std::string campaign_status_json(const CampaignData& data, std::optional<std::chrono::system_clock::time_point> now) {
  return "{" + status_members(data) + R"(, "running": [)" + running_json_members(running_runs(data, now)) + "]}\n";
}

std::string campaign_detail_json(const CampaignData& data, const store::KeyValues& last_run_provenance,
                                 const std::vector<RunMatches>& matches, const std::vector<store::ChangeRecord>& changes) {
  const auto& c = data.campaign;
  std::string failed, provenance, edits;
  for (const auto& e : changes)
    edits += fmt::format(R"({}{{"at": {}, "user": {}, "host": {}, "kind": {}, "what": {}, "rules_hash": {}}})",
                         edits.empty() ? "" : ", ", json_string(e.at), json_string(e.user), json_string(e.host),
                         json_string(e.kind), json_string(e.what), json_string(e.rules_hash));
  for (const auto& r : data.runs)
    if (r.state == store::RunState::failed)
      failed += fmt::format(R"({}{{"point_id": {}, "repetition": {}, "attempt": {}, "class": {}, "reason": {}, "run_dir": {}}})",
                            failed.empty() ? "" : ", ", json_string(r.point_id), r.repetition, r.attempt,
                            json_string(r.failure_class), json_string(r.failure_reason), json_string(r.run_dir));
  for (const auto& [k, v] : last_run_provenance)
    provenance += fmt::format("{}{}: {}", provenance.empty() ? "" : ", ", json_string(k), json_string(v));
  return fmt::format(R"({{{}, "experiment": {}, "spec_path": {}, "spec_sha256": {}, "overrides": {}, "started_at": {}, )"
                     R"("host": {}, "user": {}, "sweep_version": {}, "git_commit": {}, "git_dirty": {}, "run_root": {}, )"
                     R"("system": {}, "origin": {}, "failed_runs": [{}], "run_matches": [{}], "latest_run_provenance": {{{}}}, "changes": [{}]}})"
                     "\n",
                     status_members(data), json_string(c.experiment), json_string(c.spec_path), json_string(c.spec_hash),
                     json_string(c.overrides), json_string(c.started_at), json_string(c.host), json_string(c.user),
                     json_string(c.tool_version), json_string(c.git_commit),
                     c.git_dirty ? (*c.git_dirty ? "true" : "false") : "null", json_string(c.run_root), json_string(c.system), origin_json(c), failed, run_matches_members(matches), provenance, edits);
}

}  // namespace sweep::report
