#include "cli/campaign_forecast.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "forecast/collbench_model.h"
#include "forecast/point_shape.h"
#include "report/forecast_history.h"
#include "runner/executors.h"
#include "sched/executors.h"
#include "store/store.h"
#include "util/error.h"

namespace sweep::cli {
namespace {

/// "batch=8 nodes=2": the point's parameters (not its derived values); its id when it has none.
std::string point_label(const store::PointRecord& p) {
  std::string out;
  for (const auto& param : p.params)
    if (!param.derived) out += (out.empty() ? "" : " ") + param.name + "=" + param.value;
  return out.empty() ? p.point_id : out;
}

std::map<std::string, report::PointHistory> history_of(const runner::CampaignPlan& plan, const ForecastSettings& settings,
                                                       const std::vector<store::PointRecord>& points) {
  std::error_code ec;
  if (settings.db_path.empty() || !std::filesystem::exists(settings.db_path, ec)) return {};
  const store::Store db(settings.db_path);
  return report::forecast_history(db, plan.experiment().name, points, settings.system);
}

/// The analytical model's seconds for a collbench point whose parameter `interconnect` names a link of
/// `interconnects` (forecast/collbench_model.h); nullopt otherwise.
std::optional<double> model_seconds(const runner::CampaignPlan& plan, const matrix::Point& point,
                                    const store::PointRecord& record, const forecast::PointShape& shape,
                                    const std::vector<model::Interconnect>& interconnects) {
  const auto bundled = plan.bundled_args(point);
  if (!bundled || bundled->first != "collbench") return std::nullopt;
  for (const auto& param : record.params)
    if (param.name == kInterconnectParameter)
      if (const auto link = forecast::named_link(interconnects, param.value))
        return forecast::collbench_seconds(bundled->second, shape.ranks, *link);
  return std::nullopt;
}

}  // namespace

CampaignForecast forecast_campaign(const runner::CampaignPlan& plan, const ForecastSettings& settings) {
  const std::vector<store::PointRecord> records = plan.point_records();
  const auto history = history_of(plan, settings, records);
  CampaignForecast out{{}, {}, settings.concurrency};
  for (const store::PointRecord& record : records) {
    const matrix::Point& point = plan.point(record.point_id);
    const forecast::PointShape shape = forecast::point_shape(plan.resources(point));
    forecast::PointInput in{record.point_id, point_label(record), plan.experiment().max_repetitions, shape.nodes, shape.gpus};
    if (const auto it = history.find(record.point_id); it != history.end()) {
      in.history_s = it->second.elapsed_s;
      in.history_gpu_energy_j = it->second.gpu_energy_j;
      in.history_cpu_energy_j = it->second.cpu_energy_j;
    }
    in.model_s = model_seconds(plan, point, record, shape, settings.interconnects);
    in.time_limit_s = settings.timeout_s ? settings.timeout_s : shape.time_limit_s;
    out.points.push_back(forecast::estimate_point(in));
  }
  out.totals = forecast::totals(out.points, settings.concurrency.slots);
  return out;
}

forecast::Concurrency campaign_concurrency(const spec::Experiment& e, std::size_t jobs, std::size_t max_running) {
  if (!sched::is_batch(e.executor)) return {jobs, fmt::format("--jobs {}", jobs)};
  if (max_running > 0) return {max_running, fmt::format("--max-running {}", max_running)};
  return {0, "all runs at once (no --max-running)"};
}

std::optional<forecast::Budget> budget_in_force(const std::string& flag, const spec::Site& site) {
  if (!flag.empty()) return forecast::parse_budget(flag);
  if (!site.budget) return std::nullopt;
  return forecast::Budget{site.budget->node_hours ? forecast::Budget::Unit::node_hours : forecast::Budget::Unit::gpu_hours,
                          site.budget->limit, site.budget->where.str()};
}

std::vector<std::pair<std::string, std::string>> expected_starts(const runner::CampaignPlan& plan, std::size_t most) {
  if (!sched::is_batch(plan.experiment().executor)) return {};
  const auto scheduler = runner::make_scheduler(plan.experiment().executor);
  if (!scheduler->installed()) return {};
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<std::vector<std::string>> asked;
  for (const matrix::Point& point : plan.points()) {
    std::vector<std::string> directives = scheduler->directives(plan.resources(point));
    if (std::find(asked.begin(), asked.end(), directives) != asked.end()) continue;
    if (asked.size() == most) break;
    const std::string start = scheduler->expected_start(directives);
    std::string shape;
    for (const auto& d : directives) shape += (shape.empty() ? "" : " ") + d;
    out.emplace_back(shape, start.empty() ? "unknown" : start);
    asked.push_back(std::move(directives));
  }
  return out;
}

void require_within(const std::optional<forecast::Budget>& budget, const CampaignForecast& f) {
  if (!budget) return;
  if (const auto refusal = forecast::budget_refusal(*budget, f.points, f.totals))
    throw Error(ErrorKind::usage, *refusal);
}

}  // namespace sweep::cli
