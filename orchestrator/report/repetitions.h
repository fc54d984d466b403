#pragma once
// The report's account of adaptive repetitions (`repetitions: {min, max, until}`): per point, how many
// runs it got, how precise its mean of the target metric is, and whether that met the target. Pure.
#include <optional>
#include <string>
#include <vector>

#include "report/points_view.h"

namespace sweep::report {

struct PointRepetitions {
  std::string point;       // the varying parameters, "noise=40 size=1M" ("" with one point)
  std::size_t runs = 0;    // every run of the point
  double ci95_rel = 0;     // worst over the metric's indexes; +infinity when unknown
  std::string status;      // "met", "max reached", or "not met"
};

struct RepetitionsView {
  std::string metric;
  double target = 0;
  int min = 0, max = 0;
  std::vector<PointRepetitions> points;  // in point order
};

/// The view for a campaign whose experiment (as it ran: stored text and overrides) has `until`;
/// nullopt otherwise, or when the stored experiment no longer loads.
std::optional<RepetitionsView> repetitions_view(const CampaignData& data, const PointsView& points);

/// "## Repetitions" with a sentence naming the target and a table of the points.
std::string repetitions_markdown(const RepetitionsView& view);
/// The same as an HTML section (<h2> and a table with id "repetitions").
std::string repetitions_html(const RepetitionsView& view);

}  // namespace sweep::report
