#pragma once
// The forecast of a planned campaign (docs/forecasts.md) for `sweep plan --estimate` and `sweep run`:
// the plan's points (runner) with their history (report/forecast_history.h) handed to forecast/'s pure
// core. The one place the three meet, since runner may not include forecast/ (RunOptions::forecast).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "forecast/budget.h"
#include "forecast/estimate.h"
#include "forecast/render.h"
#include "model/interconnect.h"
#include "runner/campaign_plan.h"
#include "spec/site.h"

namespace sweep::cli {

struct ForecastSettings {
  std::string db_path;                    // history is read from here when the file exists
  std::optional<double> timeout_s;        // --timeout: the time limit of every point
  forecast::Concurrency concurrency;
  std::vector<model::Interconnect> interconnects = {};  // the model's table, the site's included
  std::string system = {};                              // the site's name: whose history comes first
};

/// The point parameter that names the interconnect a collbench point's model forecast assumes.
inline constexpr const char* kInterconnectParameter = "interconnect";

struct CampaignForecast {
  std::vector<forecast::PointForecast> points;  // in plan order
  forecast::Totals totals;
  forecast::Concurrency concurrency;
};

/// The forecast of every point of `plan` (built with PlanUse::run or ::estimate). Reads the database.
CampaignForecast forecast_campaign(const runner::CampaignPlan& plan, const ForecastSettings& settings);

/// The concurrency a campaign of `experiment` runs at: `jobs` local runs at once, or on a batch
/// executor `max_running` (0: all at once).
forecast::Concurrency campaign_concurrency(const spec::Experiment& experiment, std::size_t jobs, std::size_t max_running);

/// The budget in force: `flag` (--budget: "" = not given, "none" lifts the site's) else the site's.
std::optional<forecast::Budget> budget_in_force(const std::string& flag, const spec::Site& site);

/// On a batch executor whose commands are installed, what it says of when a job of each of the first
/// `most` resource shapes of `plan` would start (sched::Scheduler::expected_start: Slurm's `sbatch
/// --test-only`), in plan order: (the shape's directives, the answer or "unknown"). Empty otherwise.
std::vector<std::pair<std::string, std::string>> expected_starts(const runner::CampaignPlan& plan, std::size_t most);

/// Error(usage) (exit code 2) with forecast::budget_refusal's message when `f` exceeds `budget`.
void require_within(const std::optional<forecast::Budget>& budget, const CampaignForecast& f);

}  // namespace sweep::cli
