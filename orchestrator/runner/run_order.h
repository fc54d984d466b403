#pragma once
// The order in which a campaign's runs start (`order:` in the experiment, spec::RunOrder): a pure
// permutation of the runs, used by the local driver for its queue and by the batch driver for the order
// of the tasks in its job arrays (docs/experiment-format.md#order).
//
// Contract: the result is a permutation of 0..runs.size()-1. `interleaved` sorts by (repetition, the
// point's first appearance in `runs`) and `grouped` by (the point's first appearance, repetition), both
// stable, so runs of equal keys (a point's retried attempt) keep their given order. `random` is a
// Fisher-Yates shuffle drawn from splitmix64(seed): the same seed gives the same order on every machine,
// every compiler and every resume of the campaign.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/experiment.h"

namespace sweep::runner {

/// What the order needs of a run: which point it belongs to and its repetition index.
struct RunKey {
  std::string point_id;
  int repetition = 0;
};

/// The indices into `runs` in start order.
std::vector<std::size_t> run_order(const std::vector<RunKey>& runs, const spec::RunOrder& order);

/// Reorders `items` (a vector or deque of anything with `point_id` and `repetition` members) by run_order.
template <class Container>
void order_runs(Container& items, const spec::RunOrder& order) {
  std::vector<RunKey> keys;
  for (const auto& item : items) keys.push_back(RunKey{item.point_id, item.repetition});
  Container out;
  for (std::size_t i : run_order(keys, order)) out.push_back(std::move(items[i]));
  items = std::move(out);
}

/// "interleaved", "grouped" or "random (seed N)": for messages and provenance.
std::string describe(const spec::RunOrder& order);

}  // namespace sweep::runner
