#pragma once
// A run's telemetry metrics (docs/telemetry.md, "Metrics") from its nodes' telemetry files. Pure.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "telemetry/log.h"

namespace sweep::telemetry {

struct Metric {
  std::string name;
  double value = 0;
  std::string unit;    // "J", "W", "%", "MiB", "C", "s", "cores", "samples/J", "tokens/J"
  std::string better;  // "lower" (energy, time, memory), "higher" (per joule), "" (power, utilisation: no
                       // direction of its own, so a comparison says "changed", never a verdict)
};

struct Summary {
  std::vector<Metric> metrics;  // only those the sources gave (a source off or unavailable: absent)
  /// `telemetry.sources` (per source: ok on how many nodes, or why not), `telemetry.gpu_energy_from`
  /// ("counter" | "power integral"), `telemetry.cut_short` (nodes whose file has no `end`).
  std::vector<std::pair<std::string, std::string>> provenance;
};

/// The metrics of one run over its nodes' logs (one log per node, any order). Empty logs: empty summary.
Summary summarize(const std::vector<Log>& logs);

/// `samples_per_joule` and `tokens_per_joule` from the workload's `samples_per_s` and `tokens_per_s`
/// (when it reported them) and the summary's `energy_j` over `telemetry_span_s`. Empty without energy.
std::vector<Metric> per_joule(const Summary& summary, const std::map<std::string, double>& workload_metrics);

}  // namespace sweep::telemetry
