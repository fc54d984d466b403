#pragma once
// Building blocks of the report tests' campaigns: runs and metric values appended to a CampaignData
// as load_campaign would have read them.
#include <cstdint>
#include <string>

#include "report/campaign_data.h"

namespace sweep::report::fixture {

/// Appends a run of `point_id` (attempt 1) with the next id, 1, 2, ..., and returns a copy of it.
inline store::RunRecord add_run(CampaignData& d, const std::string& point_id, int repetition,
                                store::RunState state = store::RunState::succeeded) {
  store::RunRecord r;
  r.id = static_cast<std::int64_t>(d.runs.size()) + 1;
  r.point_id = point_id;
  r.repetition = repetition;
  r.attempt = 1;
  r.state = state;
  d.runs.push_back(r);
  return r;
}

/// Appends the value of metric `name` at `index` to run `r`.
inline void add_value(CampaignData& d, const store::RunRecord& r, const std::string& name, double value,
                      const std::string& unit = "", const std::string& better = "", std::int64_t index = 0) {
  d.metrics.push_back(store::MetricRow{r.id, r.point_id, r.repetition, r.state, {name, index, value, unit, better}});
}

/// Seed 000's model of GPT-2 Large's DDP epoch over InfiniBand HDR, as the fields of a `model:` section
/// indented by `indent` spaces.
inline std::string seed_model_fields(int indent) {
  std::string out;
  for (const char* line : {"baseline: {nodes: 1}", "time: epoch_time_headline", "link: ib-hdr", "transfers: 2",
                           "dtype: bf16", "parameters: parameters_without_embeddings"})
    out += std::string(static_cast<std::size_t>(indent), ' ') + line + "\n";
  return out;
}

}  // namespace sweep::report::fixture
