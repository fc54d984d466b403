#include "model/energy.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace sweep::model {

std::optional<EnergySplit> split_energy(std::optional<double> energy_j, double steps, std::optional<double> comm_s,
                                        std::optional<double> total_s) {
  if (!energy_j || !std::isfinite(*energy_j) || *energy_j < 0 || !std::isfinite(steps) || !(steps > 0)) return std::nullopt;
  EnergySplit split{*energy_j / steps, std::nullopt, std::nullopt};
  if (comm_s && total_s && std::isfinite(*comm_s) && std::isfinite(*total_s) && *total_s > 0 && *comm_s >= 0) {
    split.comm_share = std::clamp(*comm_s / *total_s, 0.0, 1.0);
    split.comm_per_step_j = split.per_step_j * *split.comm_share;
  }
  return split;
}

std::string energy_line(const std::optional<EnergySplit>& split, const std::string& source) {
  if (!split) return "energy: not measured";
  std::string line = fmt::format("energy: {:.4g} J per step measured{}", split->per_step_j, source.empty() ? "" : " (" + source + ")");
  if (split->comm_per_step_j)
    line += fmt::format("; communication costs {:.4g} J per step ({:.1f}% of it, attributed by the predicted time share: "
                        "the counters cannot split joules by activity)",
                        *split->comm_per_step_j, 100 * *split->comm_share);
  return line;
}

}  // namespace sweep::model
