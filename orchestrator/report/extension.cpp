#include "report/extension.h"

#include <algorithm>
#include <map>

namespace sweep::report {

Extension plan_extension(const CampaignComparison& c, std::size_t budget) {
  struct Ask {
    std::size_t first_row = 0, runs = 0, verdicts = 0;
  };
  std::map<std::string, Ask> asks;  // by point id
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const stats::Comparison& r = c.rows[i].result;
    if (r.verdict != stats::Verdict::inconclusive || r.repetitions_needed == 0) continue;  // 0: more runs cannot tell
    auto [it, fresh] = asks.try_emplace(c.rows[i].point_id, Ask{i, 0, 0});
    const std::size_t have = r.candidate.n;
    const std::size_t ask = r.repetitions_needed > have ? std::min(r.repetitions_needed - have, budget + 1) : 1;
    it->second.runs = std::max(it->second.runs, ask);  // at most budget + 1: never fits, never overflows
    ++it->second.verdicts;
  }
  std::vector<std::pair<std::string, Ask>> order(asks.begin(), asks.end());
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.second.runs != b.second.runs ? a.second.runs < b.second.runs : a.second.first_row < b.second.first_row;
  });
  Extension out;
  std::vector<std::pair<std::size_t, std::pair<std::string, int>>> chosen;  // (first row, entry)
  for (const auto& [point_id, ask] : order) {
    if (ask.runs > budget - out.runs) {
      out.left_out += ask.verdicts;
      continue;
    }
    out.runs += ask.runs;
    out.verdicts += ask.verdicts;
    chosen.push_back({ask.first_row, {point_id, static_cast<int>(ask.runs)}});
  }
  std::sort(chosen.begin(), chosen.end());
  for (auto& entry : chosen) out.more.push_back(std::move(entry.second));
  return out;
}

}  // namespace sweep::report
