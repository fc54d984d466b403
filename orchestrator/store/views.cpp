#include "store/views.h"

#include <fmt/core.h>

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace sweep::store {
namespace {

constexpr std::array<std::string_view, 14> kBaseColumns{"campaign", "experiment", "point_id", "point", "repetition",
                                                         "attempt", "state", "metric", "idx", "value", "unit",
                                                         "better", "run_id", "elapsed_s"};

/// A parameter's stored text as its type: the expression over point_params' value and type.
constexpr const char* kTypedValue =
    "CASE type WHEN 'int' THEN CAST(value AS INTEGER) WHEN 'float' THEN CAST(value AS REAL) "
    "WHEN 'bool' THEN (value = 'true') ELSE value END";

std::string sql_name(std::string_view name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string sql_text(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

const char* const kViewsV4 = R"SQL(
CREATE VIEW metric_values AS
SELECT c.label AS campaign, c.experiment AS experiment, r.point_id AS point_id, p.ordinal AS point,
       r.repetition AS repetition, r.attempt AS attempt, r.state AS state, m.name AS metric, m.idx AS idx,
       m.value AS value, m.unit AS unit, m.better AS better, r.id AS run_id
FROM metrics m
JOIN runs r ON r.id = m.run_id AND r.attempt = m.attempt
JOIN campaigns c ON c.id = r.campaign_id
JOIN points p ON p.campaign_id = r.campaign_id AND p.point_id = r.point_id;
CREATE VIEW parameter_values AS
SELECT c.label AS campaign, pp.point_id AS point_id, pp.name AS name,
       CASE pp.type WHEN 'int' THEN CAST(pp.value AS INTEGER) WHEN 'float' THEN CAST(pp.value AS REAL)
                    WHEN 'bool' THEN (pp.value = 'true') ELSE pp.value END AS value,
       pp.type AS type, pp.derived AS derived
FROM point_params pp JOIN campaigns c ON c.id = pp.campaign_id;
)SQL";

const char* const kRunTimeViews = R"SQL(
DROP VIEW metric_values;
CREATE VIEW metric_values AS
SELECT c.label AS campaign, c.experiment AS experiment, r.point_id AS point_id, p.ordinal AS point,
       r.repetition AS repetition, r.attempt AS attempt, r.state AS state, m.name AS metric, m.idx AS idx,
       m.value AS value, m.unit AS unit, m.better AS better, r.id AS run_id, r.elapsed_s AS elapsed_s
FROM metrics m
JOIN runs r ON r.id = m.run_id AND r.attempt = m.attempt
JOIN campaigns c ON c.id = r.campaign_id
JOIN points p ON p.campaign_id = r.campaign_id AND p.point_id = r.point_id;
)SQL";

void create_campaign_view(SQLite::Database& db, std::int64_t campaign_id, const std::string& label) {
  SQLite::Statement names(db, "SELECT name FROM point_params WHERE campaign_id = ? GROUP BY name ORDER BY min(position), name");
  names.bind(1, campaign_id);
  std::string columns;
  while (names.executeStep()) {
    const std::string name = names.getColumn(0).getString();
    // One column per name: param_<name> for a base column's name and for one that begins with param_
    // (parameters `metric` and `param_metric` get param_metric and param_param_metric).
    const bool clash = std::find(kBaseColumns.begin(), kBaseColumns.end(), name) != kBaseColumns.end() ||
                       name.rfind("param_", 0) == 0;
    columns += fmt::format(",\n  (SELECT {} FROM point_params pp WHERE pp.campaign_id = {} AND pp.point_id = v.point_id "
                           "AND pp.name = {}) AS {}",
                           kTypedValue, campaign_id, sql_text(name), sql_name(clash ? "param_" + name : name));
  }
  const std::string view = sql_name("values:" + label);
  db.exec("DROP VIEW IF EXISTS " + view);
  db.exec(fmt::format("CREATE VIEW {} AS SELECT v.*{}\nFROM metric_values v WHERE v.campaign = {}", view, columns,
                      sql_text(label)));
}

void drop_campaign_view(SQLite::Database& db, const std::string& label) {
  db.exec("DROP VIEW IF EXISTS " + sql_name("values:" + label));
}

void recreate_campaign_views(SQLite::Database& db) {
  SQLite::Statement q(db, "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'values:%'");
  std::vector<std::string> views;
  while (q.executeStep()) views.push_back(q.getColumn(0).getString());
  for (const std::string& view : views) db.exec("DROP VIEW " + sql_name(view));
  create_missing_campaign_views(db);
}

void create_missing_campaign_views(SQLite::Database& db) {
  SQLite::Statement q(db, "SELECT id, label FROM campaigns WHERE 'values:' || label NOT IN "
                          "(SELECT name FROM sqlite_master WHERE type = 'view')");
  std::vector<std::pair<std::int64_t, std::string>> missing;
  while (q.executeStep()) missing.emplace_back(q.getColumn(0).getInt64(), q.getColumn(1).getString());
  for (const auto& [id, label] : missing) create_campaign_view(db, id, label);
}

}  // namespace sweep::store
