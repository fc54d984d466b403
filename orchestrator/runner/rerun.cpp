#include "runner/rerun.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "runner/campaign_setup.h"
#include "runner/controller_lock.h"
#include "runner/provenance.h"
#include "runner/run_campaign.h"
#include "sched/executors.h"
#include "spec/experiment.h"
#include "store/database_path.h"
#include "store/store.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

constexpr std::string_view kStates[] = {"failed", "succeeded", "all"};

std::optional<double> number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

bool same_value(const std::string& stored, const std::string& wanted) {
  const auto a = number(stored), b = number(wanted);
  return a && b ? *a == *b : stored == wanted;
}

/// Whether `name` (RunSelection::runs) names run `r`.
bool names_run(const std::string& name, const store::RunRecord& r) {
  return name == std::to_string(r.id) || name == r.point_id || name == fmt::format("{}.rep{}", r.point_id, r.repetition);
}

bool point_matches(const store::PointRecord& p, const std::pair<std::string, std::string>& w) {
  return std::any_of(p.params.begin(), p.params.end(),
                     [&](const store::ParamRecord& r) { return r.name == w.first && same_value(r.value, w.second); });
}

void require_known_parameters(const std::vector<store::PointRecord>& points, const RunSelection& s) {
  std::set<std::string> names;
  for (const auto& p : points)
    for (const auto& r : p.params) names.insert(r.name);
  for (const auto& [name, value] : s.where)
    if (!names.count(name))
      throw Error(ErrorKind::usage, fmt::format("--where {}={}: the campaign has no parameter \"{}\" (its parameters: {})",
                                                name, value, name, join({names.begin(), names.end()}, ", ")));
}

store::ChangeRecord change_of(std::int64_t campaign_id, const char* kind, std::string what) {
  const HostFacts host = host_facts();
  return store::ChangeRecord{0, campaign_id, iso8601(SystemClock{}.wall()), host.user, host.hostname, kind,
                             std::move(what), ""};
}

std::string selection_text(const RunSelection& s) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : s.where) parts.push_back(name + "=" + value);
  std::string out = parts.empty() ? "every point" : "points where " + join(parts, " and ");
  if (!s.runs.empty()) out += ", runs " + join(s.runs, ", ");
  return out;
}

/// Opens the database and the campaign, runs `edit` under the campaign's controller lock, and then the
/// campaign to its end as a resume (which takes the lock again).
template <typename Edit>
RunSummary edit_then_run(RunOptions options, const std::string& label, std::string_view what, Edit&& edit) {
  const std::string db_path = store::database_path(options.results_dir, options.db_path);
  if (!std::filesystem::exists(db_path)) throw Error(ErrorKind::not_found, fmt::format("no results database at {}", db_path));
  {
    store::Store db(db_path);
    const auto campaign = db.find_campaign(label);
    if (!campaign) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", label, db_path));
    require_local_campaign(*campaign, what);
    if (options.detach && !sched::is_batch(campaign->executor))  // refused before the edit, not after it
      throw Error(ErrorKind::usage, fmt::format("--detach needs a batch executor (campaign \"{}\" uses {}); nothing was "
                                                "changed",
                                                label, campaign->executor));
    const ControllerLock lock(campaign->run_root, label);  // refused while another controller drives it
    edit(db, *campaign);
  }
  options.resume = label;
  options.experiment_path.clear();
  options.overrides.clear();
  options.rerun_failed = false;  // only the runs queued or added here
  return run_campaign(options);
}

}  // namespace

std::pair<std::string, std::string> parse_where(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(ErrorKind::usage, fmt::format("--where \"{}\": expected parameter=value, e.g. batch=32", text));
  const std::string_view view(text);
  return {std::string(trim(view.substr(0, eq))), std::string(trim(view.substr(eq + 1)))};
}

std::vector<std::string> select_points(const std::vector<store::PointRecord>& points, const RunSelection& s) {
  if (std::find(std::begin(kStates), std::end(kStates), s.state) == std::end(kStates))
    throw Error(ErrorKind::usage, fmt::format("--state {}: expected failed, succeeded or all", s.state));
  require_known_parameters(points, s);
  std::vector<std::string> out;
  for (const auto& p : points)
    if (std::all_of(s.where.begin(), s.where.end(), [&](const auto& w) { return point_matches(p, w); }))
      out.push_back(p.point_id);
  return out;
}

std::vector<std::int64_t> select_runs(const std::vector<store::PointRecord>& points,
                                      const std::vector<store::RunRecord>& runs, const RunSelection& s) {
  const std::vector<std::string> chosen = select_points(points, s);
  const std::set<std::string> chosen_points(chosen.begin(), chosen.end());
  for (const auto& name : s.runs)
    if (std::none_of(runs.begin(), runs.end(), [&](const store::RunRecord& r) { return names_run(name, r); }))
      throw Error(ErrorKind::usage, fmt::format("--run {}: no run of the campaign has that name (a point id, <point id>.rep<N> "
                                                "as sweep show lists runs, or a run id)",
                                                name));
  std::vector<std::int64_t> out;
  for (const auto& r : runs) {
    const bool state_ok = s.state == "all" || state_name(r.state) == s.state;
    const bool id_ok = s.runs.empty() || std::any_of(s.runs.begin(), s.runs.end(), [&](const auto& n) { return names_run(n, r); });
    if (chosen_points.count(r.point_id) && state_ok && id_ok && r.state != store::RunState::running) out.push_back(r.id);
  }
  return out;
}

RunSummary rerun_campaign(RunOptions options, const std::string& label, const RunSelection& selection) {
  return edit_then_run(std::move(options), label, "rerun", [&](store::Store& db, const store::CampaignRecord& c) {
    const std::vector<std::int64_t> ids = select_runs(db.points(c.id), db.runs(c.id), selection);
    if (ids.empty())
      throw Error(ErrorKind::usage, fmt::format("no {} run of campaign \"{}\" matches ({}); nothing to rerun "
                                                "(--state all takes every state)",
                                                selection.state == "all" ? "" : selection.state, label,
                                                selection_text(selection)));
    db.requeue_runs(c.id, ids,
                    change_of(c.id, "rerun", fmt::format("{} {} run(s) queued again as new attempts ({})", ids.size(),
                                                         selection.state, selection_text(selection))));
  });
}

RunSummary extend_campaign_by(RunOptions options, const std::string& label, int repetitions, const RunSelection& selection) {
  if (repetitions < 1 || repetitions > spec::kMaxRepetitions)
    throw Error(ErrorKind::usage, fmt::format("--repetitions: expected 1 to {} more repetitions, got {}",
                                              spec::kMaxRepetitions, repetitions));
  return edit_then_run(std::move(options), label, "extend", [&](store::Store& db, const store::CampaignRecord& c) {
    const RunSelection where_only{selection.where, "all", {}};
    std::map<std::string, int> runs_of;  // point id -> its runs now
    for (const auto& r : db.runs(c.id)) ++runs_of[r.point_id];
    std::vector<std::pair<std::string, int>> more;
    for (const auto& id : select_points(db.points(c.id), where_only)) {
      if (runs_of[id] + repetitions > spec::kMaxRepetitions)
        throw Error(ErrorKind::usage, fmt::format("--repetitions {}: point {} has {} runs, and a point has at most {}; "
                                                  "nothing was added",
                                                  repetitions, id, runs_of[id], spec::kMaxRepetitions));
      more.emplace_back(id, repetitions);
    }
    if (more.empty())
      throw Error(ErrorKind::usage, fmt::format("no point of campaign \"{}\" matches ({}); nothing was added", label,
                                                selection_text(where_only)));
    db.add_runs(c.id, more);
    db.record_change(change_of(c.id, "extend", fmt::format("{} repetition(s) added to {} point(s) ({})", repetitions,
                                                           more.size(), selection_text(where_only))));
  });
}

}  // namespace sweep::runner
