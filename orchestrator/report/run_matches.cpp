#include "report/run_matches.h"

#include <algorithm>
#include <charconv>

#include "store/store.h"

namespace sweep::report {

std::vector<std::pair<std::string, std::int64_t>> matches_in(const store::KeyValues& provenance) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& [key, value] : provenance) {
    if (key.rfind(store::kMatchesPrefix, 0) != 0) continue;
    std::int64_t count = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
    if (ec != std::errc() || end != value.data() + value.size() || count < 0) continue;
    out.emplace_back(key.substr(store::kMatchesPrefix.size()), count);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<RunMatches> load_run_matches(const store::Store& db, const CampaignData& data) {
  std::vector<RunMatches> out;
  for (const store::RunRecord& run : data.runs) {
    if (run.attempt == 0) continue;
    auto counts = matches_in(db.provenance(run.id, run.attempt));
    if (!counts.empty()) out.push_back({&run, std::move(counts)});
  }
  return out;
}

}  // namespace sweep::report
