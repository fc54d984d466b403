// Readers of `metrics` and `success`.
#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "spec/load_sections.h"
#include "spec/metric_parsers.h"
#include "spec/metric_reductions.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 8> kMetricKeys{"name",   "unit",   "better", "regex",
                                                      "json",   "parser", "source", "reduce"};
/// Keys a parser entry cannot take: a parser names its metrics, their units and directions itself, and
/// its rows are per index.
constexpr std::array<std::string_view, 6> kNotWithParser{"name", "unit", "better", "regex", "json", "reduce"};
constexpr std::array<std::string_view, 3> kSuccessKeys{"exit_code", "metrics", "where"};

/// [A-Za-z_][A-Za-z0-9_.]*

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
  // An unnamed group may be the value (parse/regex_rule.h decides exactly when the pattern compiles).
  for (std::size_t i = m.pattern.find('('); i != std::string::npos; i = m.pattern.find('(', i + 1))
    if ((i == 0 || m.pattern[i - 1] != '\\') && (i + 1 == m.pattern.size() || m.pattern[i + 1] != '?')) return;
  fail_at(content_location(f, src), fmt::format("metric \"{}\": the regex needs a capturing group around the number: "
                                                "(...), (?<value>...) or (?<{}>...)",
                                                m.name, m.name));
}

void read_source(const Field& f, const Source& src, MetricRule& m) {
  m.source = scalar_text(f, src, "stdout, stderr, both or a file path relative to the run directory");
  const std::vector<std::string> parts = split(m.source, '/');
  const bool climbs = std::find(parts.begin(), parts.end(), "..") != parts.end();
  if (m.source.empty() || m.source[0] == '/' || climbs)
    fail_at(location(f, src), fmt::format("\"{}\" must be stdout, stderr, both (stdout, then stderr) or a path inside the run directory "
                                          "(relative, without \"..\"), got \"{}\"",
                                          f.path, m.source));
}

/// `- parser: NAME` with an optional `source`.
MetricRule read_parser(const Field& parser, const std::vector<Field>& fields, const Source& src, MetricRule m) {
  for (const std::string_view key : kNotWithParser)
    if (const Field* f = find_field(fields, key))
      fail_at(location(f->key, src), fmt::format("\"parser\" cannot be combined with \"{}\" (a parser names its "
                                                 "metrics itself; the entry takes only \"source\")",
                                                 key));
  check_in_table(parser, src, kMetricParserNames, "parser");
  m.kind = MetricRule::Kind::parser;
  m.pattern = scalar_text(parser, src, "the name of a parser");
  if (const Field* source = find_field(fields, "source")) read_source(*source, src, m);
  return m;
}

MetricRule read_metric(const Field& item, const Source& src) {
  MetricRule m;
  m.where = location(item, src);
  const std::vector<Field> fields = map_fields(item, src);
  check_keys(fields, kMetricKeys, src);
  if (const Field* parser = find_field(fields, "parser")) return read_parser(*parser, fields, src, std::move(m));
  const Field& name = require(fields, "name", item, src, "");
  m.name = scalar_text(name, src, "a metric name");
  if (!is_metric_name(m.name))
    fail_at(location(name, src), fmt::format("metric name \"{}\" must match [A-Za-z_][A-Za-z0-9_.]*", m.name));
  const Field& better = require(fields, "better", item, src, " (higher or lower)");
  m.better = scalar_text(better, src, "\"higher\" or \"lower\"");
  if (m.better != "higher" && m.better != "lower") fail_expected(better, src, "\"higher\" or \"lower\"");
  if (const Field* unit = find_field(fields, "unit")) m.unit = scalar_text(*unit, src, "a unit string");
  if (const Field* source = find_field(fields, "source")) read_source(*source, src, m);
  if (const Field* reduce = find_field(fields, "reduce")) {
    check_in_table(*reduce, src, kMetricReductions, "reduction");
    m.reduce = reduce->value.Scalar();
  }
  read_pattern(fields, item, src, m);
  return m;
}

/// The metric names `m` can report: its name, or every metric of its parser.
std::vector<std::string> reported(const MetricRule& m) {
  if (m.kind != MetricRule::Kind::parser) return {m.name};
  const MetricParser* parser = find_metric_parser(m.pattern);
  if (!parser) return {};
  return std::vector<std::string>(parser->metrics.begin(), parser->metrics.end());
}

void add_once(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

/// Every metric name the experiment's entries can report, each once.
std::vector<std::string> reportable_names(const Experiment& exp) {
  std::vector<std::string> out;
  for (const MetricRule& m : exp.metrics)
    for (const std::string& name : reported(m)) add_once(out, name);
  return out;
}

/// The default `success.metrics`: every named metric, and the row metric of every parser.
std::vector<std::string> default_required(const Experiment& exp) {
  std::vector<std::string> out;
  for (const MetricRule& m : exp.metrics) {
    const MetricParser* parser = m.kind == MetricRule::Kind::parser ? find_metric_parser(m.pattern) : nullptr;
    add_once(out, parser ? std::string(parser->required) : m.name);
  }
  return out;
}

/// Throws when `m` and the earlier entry `other` would report the same metric: two rules with one name,
/// a rule named like a metric of a parser, or one parser twice on one source. Different parsers may
/// share names (a campaign can sweep nccl-tests and osu; each run prints only one of them).
void check_one_producer(const MetricRule& m, const MetricRule& other) {
  const bool m_parser = m.kind == MetricRule::Kind::parser, other_parser = other.kind == MetricRule::Kind::parser;
  if (!m_parser && !other_parser && other.name == m.name)
    fail_at(m.where, fmt::format("duplicate metric \"{}\" (first declared at line {})", m.name, other.where.line));
  if (m_parser && other_parser && m.pattern == other.pattern && m.source == other.source)
    fail_at(m.where, fmt::format("duplicate parser \"{}\" on {} (first declared at line {})", m.pattern, m.source,
                                 other.where.line));
  if (m_parser == other_parser) return;
  const MetricRule& named = m_parser ? other : m;
  const MetricRule& parser = m_parser ? m : other;
  const std::vector<std::string> names = reported(parser);
  if (std::find(names.begin(), names.end(), named.name) == names.end()) return;
  fail_at(m.where, m_parser ? fmt::format("parser \"{}\" also reports metric \"{}\" (declared at line {}); give each "
                                          "metric one producer",
                                          parser.pattern, named.name, other.where.line)
                            : fmt::format("metric \"{}\" is also reported by parser \"{}\" (declared at line {}); "
                                          "give each metric one producer",
                                          named.name, parser.pattern, other.where.line));
}

void read_required_metrics(const Field& f, const Source& src, LoadState& st) {
  const std::vector<std::string> declared = reportable_names(st.exp);
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

/// `success.where`: parsed and bound to its own names (metrics need not be declared: metric lines
/// name theirs at run time). Each name must be one a metric can have, and none a parameter.
void read_criterion(const Field& f, const Source& src, LoadState& st) {
  const std::string text = scalar_text(f, src, "an expression over the run's metrics");
  Expr e = Expr::parse(text, content_location(f, src));
  const std::vector<std::string> names = e.names();
  const std::vector<std::string> params = st.exp.parameter_names();
  for (const std::string& name : names)
    if (std::find(params.begin(), params.end(), name) != params.end())
      fail_at(location(f, src), fmt::format("success.where reads \"{}\", a parameter; it reads the run's metrics only "
                                            "(compare a metric with a parameter in a derived value or a report)",
                                            name));
  if (names.empty()) fail_at(location(f, src), "success.where reads no metric (expected an expression such as \"wrong == 0\")");
  e.bind(names);
  st.exp.success.criterion = std::move(e);
}

}  // namespace

void read_metrics(const Field& f, const Source& src, LoadState& st) {
  for (const Field& item : list_items(f, src)) {
    if (!item.value.IsMap()) fail_expected(item, src, "a map {name: ..., better: ..., regex: ...}");
    MetricRule m = read_metric(item, src);
    for (const MetricRule& other : st.exp.metrics) check_one_producer(m, other);
    st.exp.metrics.push_back(std::move(m));
  }
  st.exp.success.metrics = default_required(st.exp);  // the default; `success.metrics` replaces it
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
  if (const Field* where = find_field(fields, "where")) read_criterion(*where, src, st);
}

bool is_metric_name(std::string_view name) {
  const auto start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !start(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return start(c) || (c >= '0' && c <= '9') || c == '.'; });
}

}  // namespace sweep::spec
