// Readers of `retries`: further attempts per failure class, e.g. `retries: {NODE_FAIL: 2, TIMEOUT: 0}`,
// of `escalate`: resources that grow on those retries, e.g. `escalate: {time: {factor: 2, max: "4:00:00"}}`,
// and of `thresholds`: per metric, the change that counts in compare and nightly.
#include <fmt/core.h>

#include "spec/escalation.h"
#include "spec/time_limit.h"

#include "util/failure_classes.h"
#include "spec/load_sections.h"
#include "util/strings.h"

#include <algorithm>

namespace sweep::spec {

namespace {

/// The class a `retries` key names: its retry key (NODE_FAIL) or its stored name (node_fail).
const failure::FailureClass* find_class(std::string_view key) {
  for (const failure::FailureClass& c : failure::kFailureClasses)
    if (c.retry_key == key || c.name == key) return &c;
  return nullptr;
}

}  // namespace

void read_retries(const Field& f, const Source& src, LoadState& st) {
  for (const Field& entry : map_fields(f, src)) {
    const std::string key = key_name(entry);
    const failure::FailureClass* cls = find_class(key);
    if (!cls) {
      std::vector<std::string> keys;
      for (const failure::FailureClass& c : failure::kFailureClasses) keys.emplace_back(c.retry_key);
      fail_at(location(entry.key, src), fmt::format("unknown failure class \"{}\" in \"retries\" (expected one of: {}){}",
                                                    key, join(keys, ", "), did_you_mean(key, keys)));
    }
    st.exp.retries[std::string(cls->name)] =
        static_cast<int>(integer_in(entry, src, 0, 100, "a number of retries from 0 to 100"));
  }
}

void read_escalate(const Field& f, const Source& src, LoadState& st) {
  std::vector<std::string_view> names;
  for (const auto& r : kEscalatingResources) names.push_back(r.resource);
  const std::vector<Field> entries = map_fields(f, src);
  check_keys(entries, names, src);
  for (const Field& entry : entries) {
    Escalation e;
    e.resource = key_name(entry);
    e.where = location(entry.key, src);
    const auto* row = std::find_if(kEscalatingResources.begin(), kEscalatingResources.end(),
                                   [&](const auto& r) { return r.resource == e.resource; });
    e.failure_class = std::string(row->failure_class);
    const std::vector<Field> fields = map_fields(entry, src);
    constexpr std::array<std::string_view, 2> kKeys{"factor", "max"};
    check_keys(fields, kKeys, src);
    if (const Field* factor = find_field(fields, "factor")) {
      const Value v = scalar_value(*factor, src);
      if (!v.is_number() || v.as_number() <= 1 || v.as_number() > 100) fail_expected(*factor, src, "a factor above 1 and at most 100");
      e.factor = v.as_number();
    }
    const Field* max = find_field(fields, "max");
    const bool time = e.resource == "time";
    const char* max_expected = time ? "a time limit such as \"04:00:00\" (the most a retry may ask for)"
                                    : "a memory size such as 64G (the most a retry may ask for)";
    if (!max) fail_at(e.where, fmt::format("\"{}\" needs \"max\": {}", entry.path, max_expected));
    const std::string text = scalar_text(*max, src, max_expected);
    const auto bound = time ? parse_time_limit(text).seconds : slurm_memory_mib(text);
    if (!bound || *bound <= 0) fail_expected(*max, src, max_expected);
    e.max = *bound;
    if (!st.exp.retries.count(e.failure_class) || st.exp.retries.at(e.failure_class) == 0)
      fail_at(e.where, fmt::format("\"{}\" grows the retries of {}, but \"retries\" gives {} none (add retries: {{{}: 2}})",
                                   entry.path, row->retry_key, row->retry_key, row->retry_key));
    st.exp.escalations.push_back(std::move(e));
  }
}

MetricThreshold read_threshold(const Field& entry, const Source& src) {
  MetricThreshold t;
  t.metric = key_name(entry);
  t.where = location(entry.key, src);
  const Value v = scalar_value(entry, src);
  constexpr std::string_view kExpected = "a relative change from 0 to 10 (0.02 = 2%), or an expression giving one";
  if (v.is_number()) {
    if (v.as_number() < 0 || v.as_number() > 10) fail_expected(entry, src, kExpected);
    t.value = v.as_number();
  } else if (v.type() == ValueType::string) {
    t.expr = Expr::parse(v.as_string(), content_location(entry, src));
  } else {
    fail_expected(entry, src, kExpected);
  }
  return t;
}

void read_thresholds(const Field& f, const Source& src, LoadState& st) {
  // Any metric name: a program may report metrics the experiment does not declare (metric lines).
  for (const Field& entry : map_fields(f, src)) {
    MetricThreshold t = read_threshold(entry, src);
    if (!is_metric_name(t.metric))
      fail_at(t.where, fmt::format("\"thresholds\" key \"{}\" must be a metric name ([A-Za-z_][A-Za-z0-9_.]*)", t.metric));
    if (t.expr) t.expr->bind(st.exp.parameter_names());  // unknown names are errors at their place
    st.exp.thresholds.push_back(std::move(t));
  }
}

}  // namespace sweep::spec
