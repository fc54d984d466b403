#pragma once
// Adaptive repetitions (`repetitions: {min, max, until: {metric, ci95_rel}}`): after every run of the
// campaign has ended, points whose mean of the metric is not yet precise enough get more runs, up to
// `max`, added for all of them together so that the new runs of different points interleave
// (docs/experiment-format.md#repetitions, docs/statistics.md#adaptive-repetitions).
#include <string>
#include <utility>
#include <vector>

#include "spec/experiment.h"
#include "stats/precision.h"
#include "store/records.h"

namespace sweep::store {
class Store;
}

namespace sweep::runner {

/// Where one point stands against the target.
struct PointStanding {
  std::string point_id;
  std::size_t runs = 0;        // every run of the point, whatever its state
  std::size_t unfinished = 0;  // pending or running
  stats::Precision precision;  // over its succeeded runs' values of the metric
};

/// Per point in point order, from the campaign's runs and metric rows. Pure.
std::vector<PointStanding> standings(const spec::RepetitionTarget& target, std::size_t max,
                                     const std::vector<store::RunRecord>& runs,
                                     const std::vector<store::MetricRow>& rows);

/// How many runs to add to each point, in point order: none while any point has an unfinished run; a
/// point that met the target, reached `max`, or has no value of the metric (its runs failed) gets
/// none; otherwise the values the precision rule still wants (failed runs gave none), at least 1, at
/// most doubling its runs and at most up to `max`. Pure.
std::vector<std::pair<std::string, int>> more_runs(const std::vector<PointStanding>& points, std::size_t max);

/// Reads the campaign, adds the runs more_runs() asks for, and returns them interleaved (Store::add_runs).
/// Nothing for an experiment without `until`.
std::vector<store::RunRecord> extend_campaign(store::Store& db, std::int64_t campaign_id, const spec::Experiment& e);

/// One line on how the campaign's points stand: "repetitions: 3 of 4 points met ci95_rel <= 2% of
/// samples_per_s with 3 to 9 runs; 1 reached max 20 without it". "" for an experiment without `until`.
std::string repetitions_summary(const store::Store& db, std::int64_t campaign_id, const spec::Experiment& e);

}  // namespace sweep::runner
