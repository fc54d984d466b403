#pragma once
// Energy per step of each point, next to the model's time breakdown (docs/reports.md#energy-per-step):
// the measured joules of a run (`energy_j`, else `gpu_energy_j`: docs/telemetry.md) over its steps, and
// the communication's share attributed by the model's predicted time share (model/energy.h), when the
// report declares a model. Pure.
//
// The steps, by the first rule that applies at the point (kStepRules in energy_per_step.cpp):
//   - a parameter or metric `steps`: the run's steps;
//   - trainbench's `steps_per_epoch` times its epochs (the indices of `epoch_time`);
//   - otherwise the average power over the run (joules / `telemetry_span_s`) times `step_time_mean`.
// A point without joules, or without any of these, reads "energy: not measured".
#include <optional>
#include <string>
#include <vector>

#include "model/energy.h"
#include "report/campaign_data.h"

namespace sweep::report {

struct EnergyLine {
  std::string point;  // point_label (report/points_view.h): text from the database
  std::string text;   // model::energy_line's
  std::string point_id;                      // "" for the one "every point" line
  std::optional<model::EnergySplit> split;   // the numbers of `text`; none where not measured per step
  std::string joules_from;                   // "energy_j" or "gpu_energy_j"; "" when no joules
  std::string steps_from;                    // the step rule's words ("over 20 steps"); "" when none applied
};

/// One line per point, in point order, when some point has joules; one line "every point: energy: not
/// measured ..." when none has but the model predicted; else empty (no section).
std::vector<EnergyLine> energy_lines(const std::vector<PointResult>& results);

std::string energy_markdown(const std::vector<EnergyLine>& lines);
std::string energy_html(const std::vector<EnergyLine>& lines);
/// report.json's "energy" (report/json_report.h): [{point, label, per_step_j, comm_share, comm_per_step_j,
/// joules_from, steps_from, text}] of the per-point lines (a missing number or source is null); null
/// when no point has joules (the "every point" line alone is not a point's).
std::string energy_json(const std::vector<EnergyLine>& lines);

}  // namespace sweep::report
