// Reader of `telemetry` (the experiment's and the site file's): `telemetry: false` turns the sampler off,
// `telemetry: true` or `telemetry: {interval_ms: 500, sources: [proc, nvml]}` sets it (docs/telemetry.md,
// "Turning it on and off"). Its one-line text form, for `sweep site` and the campaign's record.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "spec/load_sections.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

void read_interval(const Field& f, const Source& src, Telemetry& t) {
  t.interval_ms = static_cast<int>(integer_in(f, src, kTelemetryMinIntervalMs, kTelemetryMaxIntervalMs,
                                              fmt::format("a whole number of milliseconds from {} to {}",
                                                          kTelemetryMinIntervalMs, kTelemetryMaxIntervalMs)));
  t.interval_given = true;
}

void read_sources(const Field& f, const Source& src, Telemetry& t) {
  if (!f.value.IsSequence()) fail_expected(f, src, "a list of sources out of [proc, rapl, nvml]");
  std::vector<std::string> chosen;
  for (const Field& item : list_items(f, src)) {
    check_in_table(item, src, kTelemetrySources, "telemetry source");
    const std::string name = item.value.Scalar();
    if (std::find(chosen.begin(), chosen.end(), name) != chosen.end())
      fail_at(location(item, src), fmt::format("telemetry source \"{}\" is named twice", name));
    chosen.push_back(name);
  }
  if (chosen.empty()) fail_expected(f, src, "at least one source out of [proc, rapl, nvml] (telemetry: false turns it off)");
  t.sources_given = true;
  t.sources.clear();
  for (const std::string_view s : kTelemetrySources)  // one order, whatever the file's
    if (std::find(chosen.begin(), chosen.end(), s) != chosen.end()) t.sources.emplace_back(s);
}

using TelemetryReader = void (*)(const Field&, const Source&, Telemetry&);
constexpr std::array<std::pair<std::string_view, TelemetryReader>, 2> kTelemetryKeys{{{"interval_ms", read_interval},
                                                                                      {"sources", read_sources}}};

}  // namespace

Telemetry read_telemetry_value(const Field& f, const Source& src) {
  Telemetry t;
  t.where = location(f, src);
  if (f.value.IsScalar()) {
    const Value v = scalar_value(f, src);
    if (v.type() != ValueType::boolean)
      fail_expected(f, src, "false, true, or a map {interval_ms: N, sources: [proc, rapl, nvml]}");
    t.enabled = v.as_bool();
    return t;
  }
  if (!f.value.IsMap()) fail_expected(f, src, "false, true, or a map {interval_ms: N, sources: [proc, rapl, nvml]}");
  std::array<std::string_view, kTelemetryKeys.size()> names;
  std::transform(kTelemetryKeys.begin(), kTelemetryKeys.end(), names.begin(), [](const auto& k) { return k.first; });
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, names, src);
  for (const auto& [key, read] : kTelemetryKeys)
    if (const Field* field = find_field(fields, key)) read(*field, src, t);
  return t;
}

void read_telemetry(const Field& f, const Source& src, LoadState& st) { st.exp.telemetry = read_telemetry_value(f, src); }

std::string telemetry_text(const Telemetry& t) {
  if (!t.enabled) return "off";
  return fmt::format("interval_ms={} sources={}", t.interval_ms, join(t.sources, ","));
}

std::optional<Telemetry> telemetry_from_text(std::string_view text) {
  Telemetry t;
  if (text == "off") {
    t.enabled = false;
    return t;
  }
  const std::vector<std::string> words = split(std::string(text), ' ');
  if (words.size() != 2 || words[0].rfind("interval_ms=", 0) != 0 || words[1].rfind("sources=", 0) != 0) return std::nullopt;
  const std::string_view n = std::string_view(words[0]).substr(12);
  const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), t.interval_ms);
  if (ec != std::errc() || end != n.data() + n.size()) return std::nullopt;
  // A database someone sent is untrusted: the experiment's bounds hold for a recorded setting too.
  if (t.interval_ms < kTelemetryMinIntervalMs || t.interval_ms > kTelemetryMaxIntervalMs) return std::nullopt;
  t.sources = split(words[1].substr(8), ',');
  for (const std::string& s : t.sources)
    if (std::find(kTelemetrySources.begin(), kTelemetrySources.end(), s) == kTelemetrySources.end()) return std::nullopt;
  return t;
}

}  // namespace sweep::spec
