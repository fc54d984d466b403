#pragma once
// Energy per step next to the model's time breakdown (docs/model.md#energy). Pure.
//
// The counters (NVML's total energy, RAPL) give the joules of the whole run; nothing splits them by
// activity. The communication's share is therefore attributed: the run's joules per step times the
// model's predicted share of communication in the step's time (comm / (compute + comm)). It says what
// communication costs if power were the same while communicating as while computing, and is labelled so.
#include <optional>
#include <string>

namespace sweep::model {

struct EnergySplit {
  double per_step_j = 0;                  // measured: the run's joules over its steps
  std::optional<double> comm_share;       // predicted communication time over predicted total time, 0..1
  std::optional<double> comm_per_step_j;  // per_step_j · comm_share
};

/// The split of `energy_j` (joules of the run) over `steps` (the steps the run took), attributed by the
/// predicted `comm_s` over `total_s` when both are given and total_s > 0. nullopt without a positive
/// finite energy and step count (nothing measured: "not measured").
std::optional<EnergySplit> split_energy(std::optional<double> energy_j, double steps, std::optional<double> comm_s = std::nullopt,
                                        std::optional<double> total_s = std::nullopt);

/// The line a report or `sweep model` prints: "energy: 412.3 J per step measured; communication costs
/// 95.02 J per step (23.0% of it, attributed by the predicted time share: the counters cannot split
/// joules by activity)", or "energy: not measured". `source` says where the joules came from
/// ("energy_j over 100 steps"); it is put in brackets after "measured".
std::string energy_line(const std::optional<EnergySplit>& split, const std::string& source = "");

}  // namespace sweep::model
