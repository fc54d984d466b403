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
#include <string>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

struct EnergyLine {
  std::string point;  // point_label (report/points_view.h): text from the database
  std::string text;   // model::energy_line's
};

/// One line per point, in point order, when some point has joules; one line "every point: energy: not
/// measured ..." when none has but the model predicted; else empty (no section).
std::vector<EnergyLine> energy_lines(const std::vector<PointResult>& results);

std::string energy_markdown(const std::vector<EnergyLine>& lines);
std::string energy_html(const std::vector<EnergyLine>& lines);

}  // namespace sweep::report
