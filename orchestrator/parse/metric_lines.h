#pragma once
// The metric-line protocol, format version 1 (docs/metrics-format.md): programs print one JSON object
// per line, e.g. {"v": 1, "metric": "busbw", "value": 12.5, "unit": "GB/s", "better": "higher"}.
// Internal to parse/.
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "parse/collector.h"
#include "parse/extract.h"

namespace sweep::parse {

/// The metric-line format version this reader understands.
inline constexpr int kMetricLineVersion = 1;

/// The substring every metric line contains (the cheap pre-filter before JSON parsing).
inline constexpr std::string_view kMetricLineNeedle = "\"metric\"";

/// Declared rules by metric name: their unit and direction fill in what a line omits.
using RulesByName = std::map<std::string, const Rule*, std::less<>>;

/// Reads one candidate line (`object` is discarded when `text` is not a JSON object). Objects without
/// a "metric" member are not metric lines and are ignored silently. A metric line that is malformed,
/// of another version or holds a non-finite value adds a warning and no observation.
void read_metric_line(std::string_view source, std::size_t line, std::string_view text, const nlohmann::json& object,
                      const RulesByName& rules, Collector& out);

}  // namespace sweep::parse
