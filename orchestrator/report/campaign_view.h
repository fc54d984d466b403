#pragma once
// Text views of campaigns for `sweep ls` and `sweep show`. Pure over CampaignData/records.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/run_matches.h"

namespace sweep::report {

struct CampaignSummary {
  store::CampaignRecord campaign;
  std::vector<store::StateCount> counts;
};

/// One line per campaign: label, experiment, started, and run counts per state.
std::string campaign_list(const std::vector<CampaignSummary>& campaigns);

/// One campaign in detail: provenance, counts, a per-point progress table, failed runs with reasons,
/// each run's metric match counts (`matches`, from load_run_matches; the section is left out when
/// empty), and the provenance of the most recent run.
std::string campaign_detail(const CampaignData& data, const store::KeyValues& last_run_provenance,
                            const std::vector<RunMatches>& matches);

/// A campaign's progress: run counts per state, failures per class, a per-point table, and the runs
/// executing now (report/running_runs.h; their elapsed time at `now`, left out without it).
std::string campaign_status(const CampaignData& data,
                            std::optional<std::chrono::system_clock::time_point> now = std::nullopt);

}  // namespace sweep::report
