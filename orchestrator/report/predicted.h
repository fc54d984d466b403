#pragma once
// The report's analytical model evaluated at every point (docs/reports.md#predicted-values). Pure.
//
// At a point p with baseline point b (the model's `baseline`, other parameters matched as for derived
// metrics), the model (model/predict.h) is fed:
//   - the single-GPU epoch time: the mean of `time` at b, times the work of an epoch of p over that of
//     b, where work = dp·batch·steps (trainbench's epochs keep the per-rank batch and the steps fixed, so
//     a 2-way DP epoch is twice the work of the single-GPU one);
//   - the link: an interconnect of model/interconnect.h, or the parameter naming one, with `bandwidth`
//     and `latency_us` replacing its figures when given;
//   - the inputs of spec::ReportModel, each a constant or a parameter or metric of p. Left out, an input
//     is read from the metric of trainbench's name if the campaign has it (kDefaults in predicted.cpp:
//     parameters, dp, tp, pp, microbatches, batch, seq, width, layers, steps_per_epoch), else it is 1
//     (dp, tp, pp, microbatches) or 0 (batch, seq, width, layers); parameters and steps have no fallback.
// Its predictions become metrics "model:<quantity>" (spec::predicted_quantities) of p, with n = the
// number of b's runs and a 95% interval from the model evaluated at the ends of the interval of b's time.
// Points without a baseline, or lacking an input, get none. The measured joules per step beside these
// predictions, communication's share attributed by model:comm_time / model:epoch_time: report/energy_per_step.h.
#include <vector>

#include "model/interconnect.h"
#include "report/campaign_data.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// Adds the predictions of `model` to `results` (all points of the campaign, so that baselines are
/// found). Error(invalid_experiment) at the model's (or the input's) file:line:column for a name the
/// campaign lacks, an unknown interconnect or dtype, or a campaign metric already named "model:...".
/// `interconnects` (the site file's) are added to the built-in table, replacing built-ins of their name.
void add_predictions(std::vector<PointResult>& results, const spec::ReportModel& model,
                     const std::vector<model::Interconnect>& interconnects = {});

}  // namespace sweep::report
