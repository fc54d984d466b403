#pragma once
// Failed runs grouped by cause, for `sweep run`'s, `collect`'s and `nightly`'s summaries and the
// reports' failed-runs section: the program's own last words once per cause, not once per run. Pure.
#include <cstddef>
#include <string>
#include <vector>

#include "store/records.h"
#include "util/output_tail.h"

namespace sweep::report {

/// The failed runs that share a cause: the same reason headline and the same last line of output (a
/// traceback's exception and message), told apart by neither the run's own directory nor digits.
/// `first` is the group's first run, whose evidence is shown.
struct FailureGroup {
  ReasonParts cause;                // the first run's reason, taken apart
  const store::RunRecord* first = nullptr;
  std::size_t runs = 0;
};

/// The failed runs of `runs` (any order of states), grouped; groups in the order of their first run.
/// The records must outlive the answer.
std::vector<FailureGroup> group_failures(const std::vector<store::RunRecord>& runs);

/// The first `max_groups` groups as terminal lines (not yet made terminal-safe: print them through
/// util/sinks.h terminal_text with keep_lines): "N runs: <headline>", the first run's point (with its
/// parameters when `points` has it) and run directory, the reason's details and its output tail,
/// indented; then how many causes were left out. "" when no run failed.
std::string failure_summary(const std::vector<store::RunRecord>& runs, const std::vector<store::PointRecord>& points,
                            std::size_t max_groups = 3);

}  // namespace sweep::report
