#pragma once
// Whether a baseline ran on other hardware than its candidate (docs/forecasts.md, "The hardware key"):
// the values of the hardware key's provenance keys (spec/hardware_key.h) on each side, compared by
// their distinct values over each side's ended runs (report/campaign_data.h: provenance_values). A
// side with no value for a key does not differ from the other only if the other has none either.
// `compare`, `nightly` and `check` refuse a change unless --allow-hardware-change; with it, they print
// the change first. Pure.
#include <string>
#include <vector>

#include "store/records.h"

namespace sweep::report {

/// One key whose values differ: each side's distinct values, sorted (empty: the side recorded none).
struct KeyChange {
  std::string key;
  std::vector<std::string> baseline, candidate;
};

struct HardwareChange {
  std::vector<std::string> key;  // the hardware key judged
  std::vector<KeyChange> changes;  // in key order; empty: the same hardware
  bool changed() const { return !changes.empty(); }
};

/// The distinct values of `key` in `values`, sorted; values of one key only.
std::vector<std::string> distinct_key_values(const std::string& key, const std::vector<store::AttemptValue>& values);

/// The keys of `key` whose distinct values differ between `baseline` and `candidate` (store::AttemptValue
/// of any keys; the others are ignored).
HardwareChange hardware_change(const std::vector<std::string>& key, const std::vector<store::AttemptValue>& baseline,
                               const std::vector<store::AttemptValue>& candidate);

/// "gpu.model NVIDIA A100 -> NVIDIA H100" (values of a side joined by ", ", none: "none"; not yet made
/// safe for a sink).
std::string key_change_text(const KeyChange& change);

/// The refusal's message, its values made terminal text (util/sinks.h): "the baseline BASE ran on other hardware than CAND: gpu.model A -> B; ...
/// (hardware key: K, K); compare anyway with --allow-hardware-change, or judge other keys with
/// --hardware-key KEY,KEY".
std::string hardware_refusal(const HardwareChange& change, const std::string& baseline, const std::string& candidate);

/// Error(usage) with hardware_refusal()'s message when `change` changed and it is not `allowed`.
void refuse_unless_allowed(const HardwareChange& change, bool allowed, const std::string& baseline,
                           const std::string& candidate);

/// What an allowed change prints first, a line each: "hardware changed (--allow-hardware-change):
/// gpu.model NVIDIA A100 -> NVIDIA H100\n"; "" when nothing changed. Each line terminal text (util/sinks.h):
/// a value's newline or escape cannot forge another line.
std::string hardware_change_lines(const HardwareChange& change);

/// A side's values of the key, for a reader, as one line of terminal text: "gpu.model NVIDIA H100;
/// gpu.count 8; cpu_model none".
std::string hardware_values_text(const std::vector<std::string>& key, const std::vector<store::AttemptValue>& values);

}  // namespace sweep::report
