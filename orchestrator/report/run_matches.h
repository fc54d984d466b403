#pragma once
// How many values each regex or json metric rule found in each run (before its `reduce`), as ingest
// recorded them: the provenance keys `matches.<metric>` of a run's latest attempt (store/records.h).
// For `sweep show`; no schema of its own.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

struct RunMatches {
  const store::RunRecord* run = nullptr;  // points into the CampaignData it was read for
  std::vector<std::pair<std::string, std::int64_t>> counts;  // metric -> values found, by metric name
};

/// The match counts in `provenance` (keys store::kMatchesPrefix + metric), by metric name; a value that
/// is not a count is left out. Pure.
std::vector<std::pair<std::string, std::int64_t>> matches_in(const store::KeyValues& provenance);

/// Every run of `data` (in its order) whose latest attempt recorded match counts; runs that never
/// started, and runs of campaigns ingested before `reduce` existed, are absent. One query per run.
std::vector<RunMatches> load_run_matches(const store::Store& db, const CampaignData& data);

}  // namespace sweep::report
