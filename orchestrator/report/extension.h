#pragma once
// `--extend-budget N` of sweep compare and sweep nightly: which of the candidate's points get more
// runs so that inconclusive verdicts can be decided (docs/statistics.md#extending-an-inconclusive-comparison).
// Pure.
#include <string>
#include <utility>
#include <vector>

#include "report/comparison_view.h"

namespace sweep::report {

struct Extension {
  std::vector<std::pair<std::string, int>> more;  // (candidate point id, runs to add), in point order
  std::size_t runs = 0;                           // their sum: at most the budget
  std::size_t verdicts = 0;                       // inconclusive rows of the chosen points
  std::size_t left_out = 0;                       // inconclusive rows whose points did not fit the budget
};

/// Each point with an inconclusive row asks for what its rows' power hints want beyond the candidate's
/// repetitions (the largest over its metrics; at least one run). Points are taken cheapest first, each
/// whole or not at all, while the budget lasts, so that the budget decides as many points as it can.
/// Only the candidate grows: the baseline is history (rerunning it now would measure today's system).
Extension plan_extension(const CampaignComparison& c, std::size_t budget);

}  // namespace sweep::report
