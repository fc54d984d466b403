// Readers of `metrics` and `success`.
#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "spec/load_sections.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 6> kMetricKeys{"name", "unit", "better", "regex", "json", "source"};
constexpr std::array<std::string_view, 2> kSuccessKeys{"exit_code", "metrics"};

/// [A-Za-z_][A-Za-z0-9_.]*
bool is_metric_name(std::string_view name) {
  const auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !start(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return start(c) || (c >= '0' && c <= '9') || c == '.'; });
}

const Field& require(const std::vector<Field>& fields, std::string_view key, const Field& item, const Source& src,
                     std::string_view hint) {
  const Field* f = find_field(fields, key);
  if (!f) fail_at(location(item, src), fmt::format("\"{}\" is missing \"{}\"{}", item.path, key, hint));
  return *f;
}

void read_pattern(const std::vector<Field>& fields, const Field& item, const Source& src, MetricRule& m) {
  const Field* regex = find_field(fields, "regex");
  const Field* json = find_field(fields, "json");
  if (!regex && !json)
    fail_at(location(item, src), fmt::format("metric \"{}\" needs exactly one of \"regex\" or \"json\"", m.name));
  if (regex && json)
    fail_at(location(json->key, src),
            fmt::format("metric \"{}\" takes either \"regex\" or \"json\", not both", m.name));
  const Field& f = regex ? *regex : *json;
  m.kind = regex ? MetricRule::Kind::regex : MetricRule::Kind::json;
  m.pattern = scalar_text(f, src, regex ? "a regular expression" : "a JSON key");
  if (m.pattern.empty()) fail_at(location(f, src), fmt::format("\"{}\" must not be empty", f.path));
  if (!regex) return;
  for (const std::string& group : {std::string("value"), m.name})
    if (m.pattern.find("(?<" + group + ">") != std::string::npos ||
        m.pattern.find("(?P<" + group + ">") != std::string::npos)
      return;
  fail_at(content_location(f, src), fmt::format("metric \"{}\": the regex needs a named group (?<value>...) or "
                                                "(?<{}>...) around the number",
                                                m.name, m.name));
}

void read_source(const Field& f, const Source& src, MetricRule& m) {
  m.source = scalar_text(f, src, "stdout, stderr or a file path relative to the run directory");
  const std::vector<std::string> parts = split(m.source, '/');
  const bool climbs = std::find(parts.begin(), parts.end(), "..") != parts.end();
  if (m.source.empty() || m.source[0] == '/' || climbs)
    fail_at(location(f, src), fmt::format("\"{}\" must be stdout, stderr or a path inside the run directory "
                                          "(relative, without \"..\"), got \"{}\"",
                                          f.path, m.source));
}

MetricRule read_metric(const Field& item, const Source& src) {
  MetricRule m;
  m.where = location(item, src);
  const std::vector<Field> fields = map_fields(item, src);
  check_keys(fields, kMetricKeys, src);
  const Field& name = require(fields, "name", item, src, "");
  m.name = scalar_text(name, src, "a metric name");
  if (!is_metric_name(m.name))
    fail_at(location(name, src), fmt::format("metric name \"{}\" must match [A-Za-z_][A-Za-z0-9_.]*", m.name));
  const Field& better = require(fields, "better", item, src, " (higher or lower)");
  m.better = scalar_text(better, src, "\"higher\" or \"lower\"");
  if (m.better != "higher" && m.better != "lower") fail_expected(better, src, "\"higher\" or \"lower\"");
  if (const Field* unit = find_field(fields, "unit")) m.unit = scalar_text(*unit, src, "a unit string");
  if (const Field* source = find_field(fields, "source")) read_source(*source, src, m);
  read_pattern(fields, item, src, m);
  return m;
}

std::vector<std::string> metric_names(const Experiment& exp) {
  std::vector<std::string> out;
  for (const MetricRule& m : exp.metrics) out.push_back(m.name);
  return out;
}

void read_required_metrics(const Field& f, const Source& src, LoadState& st) {
  const std::vector<std::string> declared = metric_names(st.exp);
  for (const Field& item : list_items(f, src)) {
    const std::string name = scalar_text(item, src, "a metric name");
    if (std::find(declared.begin(), declared.end(), name) == declared.end())
      fail_at(location(item, src),
              fmt::format("unknown metric \"{}\" in success.metrics{}", name,
                          declared.empty() ? " (no metrics are declared)" : did_you_mean(name, declared)));
    std::vector<std::string>& chosen = st.exp.success.metrics;
    if (std::find(chosen.begin(), chosen.end(), name) != chosen.end())
      fail_at(location(item, src), fmt::format("metric \"{}\" is listed twice in success.metrics", name));
    chosen.push_back(name);
  }
}

}  // namespace

void read_metrics(const Field& f, const Source& src, LoadState& st) {
  for (const Field& item : list_items(f, src)) {
    if (!item.value.IsMap()) fail_expected(item, src, "a map {name: ..., better: ..., regex: ...}");
    MetricRule m = read_metric(item, src);
    for (const MetricRule& other : st.exp.metrics)
      if (other.name == m.name)
        fail_at(m.where, fmt::format("duplicate metric \"{}\" (first declared at line {})", m.name, other.where.line));
    st.exp.metrics.push_back(std::move(m));
  }
  st.exp.success.metrics = metric_names(st.exp);  // the default; `success.metrics` replaces it
}

void read_success(const Field& f, const Source& src, LoadState& st) {
  st.exp.success.where = location(f, src);
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, kSuccessKeys, src);
  if (const Field* code = find_field(fields, "exit_code"))
    st.exp.success.exit_code = static_cast<int>(integer_in(*code, src, 0, 255, "an integer from 0 to 255"));
  if (const Field* metrics = find_field(fields, "metrics")) {
    st.exp.success.metrics.clear();
    read_required_metrics(*metrics, src, st);
  }
}

}  // namespace sweep::spec
