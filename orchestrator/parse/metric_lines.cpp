#include "parse/metric_lines.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <optional>

namespace sweep::parse {

namespace {

using json = nlohmann::json;

/// A metric name is text in every sink: non-empty, at most kMaxMetricNameBytes, no control character
/// (C0, DEL). Refused rather than escaped, so that a name means the same in the database and a report.
bool is_name(const json& j) {
  if (!j.is_string()) return false;
  const auto& name = j.get_ref<const std::string&>();
  return !name.empty() && name.size() <= kMaxMetricNameBytes && std::none_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}
bool is_number_or_string(const json& j) { return j.is_number() || j.is_string(); }
bool is_string(const json& j) { return j.is_string(); }
bool is_direction(const json& j) {
  return j.is_string() && (j.get_ref<const std::string&>() == "higher" || j.get_ref<const std::string&>() == "lower");
}
bool is_index(const json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<long long>() >= 0); }
bool is_object(const json& j) { return j.is_object(); }

/// The members of a version-1 metric line; other members are ignored (reserved for compatible
/// additions).
struct Field {
  std::string_view key;
  bool required;
  bool (*valid)(const json&);
  std::string_view expected;
};

constexpr std::array<Field, 6> kFields{{
    {"metric", true, is_name, "a non-empty string of at most 256 bytes without control characters"},
    {"value", true, is_number_or_string, "a number or a numeric string"},
    {"unit", false, is_string, "a string"},
    {"better", false, is_direction, "\"higher\" or \"lower\""},
    {"index", false, is_index, "a non-negative integer"},
    {"tags", false, is_object, "an object"},
}};

/// "" when `object` is a well-formed version-1 metric line, else why not.
std::string problem_with(const json& object) {
  const auto v = object.find("v");
  if (v == object.end()) return "metric line without \"v\": 1; skipped";
  if (!v->is_number_integer() || v->get<long long>() != kMetricLineVersion)
    return fmt::format("metric line version {} is not supported (expected \"v\": {}); skipped", v->dump(),
                       kMetricLineVersion);
  for (const Field& field : kFields) {
    const auto it = object.find(field.key);
    if (it == object.end()) {
      if (field.required) return fmt::format("metric line without \"{}\"; skipped", field.key);
    } else if (!field.valid(*it)) {
      return fmt::format("metric line: \"{}\" must be {}; skipped", field.key, field.expected);
    }
  }
  return "";
}

std::string string_member(const json& object, const char* key, const std::string& fallback) {
  const auto it = object.find(key);
  return it == object.end() ? fallback : it->get<std::string>();
}

}  // namespace

void read_metric_line(std::string_view source, std::size_t line, std::string_view text, const json& object,
                      const RulesByName& rules, Collector& out) {
  if (object.is_discarded()) {
    if (text.find(kMetricLineNeedle) != std::string_view::npos)
      out.warn(source, line, "line looks like a metric line but is not a valid JSON object; skipped");
    return;
  }
  if (!object.contains("metric")) return;
  if (const std::string problem = problem_with(object); !problem.empty()) return out.warn(source, line, problem);
  const auto& name = object.at("metric").get_ref<const std::string&>();
  const json& raw = object.at("value");
  double value = 0;
  if (raw.is_number()) {
    value = raw.get<double>();
  } else if (!out.number(raw.get_ref<const std::string&>(), source, line, name, value)) {
    return;
  }
  const auto rule = rules.find(name);
  const Rule* declared = rule == rules.end() ? nullptr : rule->second;
  const auto index = object.find("index");
  const std::optional<std::size_t> explicit_index =
      index == object.end() ? std::nullopt : std::optional<std::size_t>(index->get<std::size_t>());
  out.add(name, explicit_index, value, string_member(object, "unit", declared ? declared->unit : ""),
          string_member(object, "better", declared ? declared->better : ""));
}

}  // namespace sweep::parse
