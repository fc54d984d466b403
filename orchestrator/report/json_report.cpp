#include "report/json_report.h"

#include <fmt/format.h>

#include <iterator>

#include "report/efficiency.h"
#include "report/efficiency_render.h"
#include "report/energy_per_step.h"
#include "report/forecast_actual.h"
#include "util/escape.h"

namespace sweep::report {
namespace {

// Appends `, "ci95": [low, high]`.
void append_ci95(std::string& out, const stats::Summary& s) {
  out += R"(, "ci95": [)";
  append_json_number(out, s.ci_low);
  out += ", ";
  append_json_number(out, s.ci_high);
  out += "]";
}

// Appends `"name": {...}` for one metric. Written into one growing string: a report of 10,000 points x
// 20 metrics formats 3 million numbers, and temporaries per number would dominate its time.
void append_metric(std::string& out, const std::string& name, const MetricStats& m) {
  const stats::Summary& s = m.summary;
  append_json_string(out, name);
  out += R"(: {"unit": )";
  append_json_string(out, m.unit);
  out += R"(, "better": )";
  append_json_string(out, m.better);
  fmt::format_to(std::back_inserter(out), R"(, "n": {})", s.n);
  const std::pair<const char*, double> fields[] = {{"mean", s.mean},     {"sd", s.sd},   {"cv", s.cv}, {"median", s.median},
                                                   {"q1", s.q1},         {"q3", s.q3},   {"min", s.min}, {"max", s.max}};
  for (const auto& [key, value] : fields) {
    out += ", \"";
    out += key;
    out += "\": ";
    append_json_number(out, value);
  }
  append_ci95(out, s);
  out += R"(, "outliers": [)";
  for (std::size_t i = 0; i < s.outliers.size(); ++i) fmt::format_to(std::back_inserter(out), "{}{}", i ? ", " : "", s.outliers[i]);
  out += R"(], "values": [)";
  for (std::size_t i = 0; i < m.values.size(); ++i) {
    if (i) out += ", ";
    append_json_number(out, m.values[i]);
  }
  out += "]}";
}

std::string campaign_json(const store::CampaignRecord& c) {
  return fmt::format(R"({{"label": {}, "experiment": {}, "spec_path": {}, "spec_hash": {}, "overrides": {}, "executor": {}, )"
                     R"("repetitions": {}, "started_at": {}, "ended_at": {}, "host": {}, "user": {}, "sweep_version": {}, )"
                     R"("git_commit": {}, "git_dirty": {}}})",
                     json_string(c.label), json_string(c.experiment), json_string(c.spec_path), json_string(c.spec_hash),
                     json_string(c.overrides), json_string(c.executor), c.repetitions, json_string(c.started_at),
                     json_string(c.ended_at), json_string(c.host), json_string(c.user), json_string(c.tool_version),
                     json_string(c.git_commit), c.git_dirty ? (*c.git_dirty ? "true" : "false") : "null");
}

/// `[{"key": ..., "value": ..., "runs": n}, ...]`: the hardware provenance values and their run counts
/// (CampaignData::hardware: the GPU and NCCL keys over the runs that asked for GPUs, and gpus_requested).
std::string hardware_json(const std::vector<store::ProvenanceCount>& counts) {
  std::string out = "[";
  for (std::size_t i = 0; i < counts.size(); ++i)
    out += fmt::format(R"({}{{"key": {}, "value": {}, "runs": {}}})", i ? ", " : "", json_string(counts[i].key),
                       json_string(counts[i].value), counts[i].runs);
  return out + "]";
}

/// `"change_point_method": {...}, "change_points": [...]`.
std::string change_points_json(const std::vector<HistoryChangePoint>& changes) {
  const stats::ChangePointOptions o;
  std::string out = fmt::format(R"("change_point_method": {{"name": "e-divisive", "alpha": 1, "min_segment": {}, )"
                                R"("permutations": {}, "significance": {}, "seed": {}}}, "change_points": [)",
                                o.min_segment, o.permutations, o.significance, o.seed);
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const HistoryChangePoint& c = changes[i];
    out += fmt::format(R"({}{{"metric": {}, "point": {}, "night": {}, "campaign": {}, "index": {})", i ? ", " : "",
                       json_string(c.metric), json_string(c.point), json_string(c.night), json_string(c.campaign), c.change.index);
    const std::pair<const char*, double> fields[] = {{"before", c.change.before}, {"after", c.change.after},
                                                     {"relative", c.change.relative}, {"statistic", c.change.statistic},
                                                     {"p", c.change.p}};
    for (const auto& [key, value] : fields) {
      fmt::format_to(std::back_inserter(out), R"(, "{}": )", key);
      append_json_number(out, value);
    }
    out += "}";
  }
  return out + "]";
}

void append_strings(std::string& out, const std::vector<std::string>& texts) {
  out += "[";
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (i) out += ", ";
    append_json_string(out, texts[i]);
  }
  out += "]";
}

/// `{"mean": ..., "sd": ..., "ci95": [low, high], "n": ...}`, or null for an empty cell.
void append_cell(std::string& out, const Cell& cell) {
  const stats::Summary& s = cell.stats.summary;
  if (!cell.present || s.n == 0) {
    out += "null";
    return;
  }
  out += R"({"mean": )";
  append_json_number(out, s.mean);
  out += R"(, "sd": )";
  append_json_number(out, s.sd);
  append_ci95(out, s);
  fmt::format_to(std::back_inserter(out), R"(, "n": {}}})", s.n);
}

/// `{"name", "title", "row_names", "columns": [{"header", "unit"}], "rows": [{"values", "cells"}]}`.
void append_table(std::string& out, const Table& t) {
  out += R"({"name": )";
  append_json_string(out, t.name);
  out += R"(, "title": )";
  append_json_string(out, t.title);
  out += R"(, "row_names": )";
  append_strings(out, t.row_names);
  out += R"(, "columns": [)";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    out += c ? R"(, {"header": )" : R"({"header": )";
    append_json_string(out, t.columns[c]);
    out += R"(, "unit": )";
    append_json_string(out, c < t.column_units.size() ? t.column_units[c] : t.unit);
    out += "}";
  }
  out += R"(], "rows": [)";
  for (std::size_t r = 0; r < t.row_values.size(); ++r) {
    out += r ? R"(, {"values": )" : R"({"values": )";
    append_strings(out, t.row_values[r]);
    out += R"(, "cells": [)";
    for (std::size_t c = 0; c < t.cells[r].size(); ++c) {
      if (c) out += ", ";
      append_cell(out, t.cells[r][c]);
    }
    out += "]}";
  }
  out += "]}";
}

}  // namespace

std::string json_report(const CampaignData& data, const std::vector<PointResult>& results,
                        const std::vector<HistoryChangePoint>& change_points, const std::vector<Table>& tables,
                        const std::string& verdict_json, const Timelines& timelines) {
  std::string out = fmt::format(R"({{"version": {}, "verdict": {}, "campaign": {}, "hardware": {}, "points": [)",
                                kJsonReportVersion, verdict_json, campaign_json(data.campaign), hardware_json(data.hardware));
  // About 300 bytes per point and per metric summary, 20 per value: one allocation instead of doublings.
  std::size_t estimate = 0;
  for (const auto& r : results) {
    estimate += 300 * (1 + r.metrics.size() + r.point->params.size() / 4);
    for (const auto& [name, m] : r.metrics) estimate += 20 * m.values.size();
  }
  out.reserve(estimate);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const PointResult& r = results[i];
    std::string params;
    for (const auto& p : r.point->params)
      params += fmt::format(R"({}{{"name": {}, "value": {}, "type": {}, "derived": {}}})", params.empty() ? "" : ", ",
                            json_string(p.name), json_string(p.value), json_string(p.type), p.derived ? "true" : "false");
    fmt::format_to(std::back_inserter(out), R"({}{{"point_id": {}, "params": [{}], "succeeded": {}, "failed": {}, "unfinished": {}, "metrics": {{)",
                   i ? ", " : "", json_string(r.point->point_id), params, r.succeeded, r.failed, r.unfinished);
    bool first_metric = true;
    for (const auto& [name, m] : r.metrics) {
      if (!first_metric) out += ", ";
      first_metric = false;
      append_metric(out, name, m);
    }
    out += "}}";
  }
  out += R"(], "failed_runs": [)";
  bool first = true;
  for (const auto& run : data.runs) {
    if (run.state != store::RunState::failed) continue;
    out += fmt::format(R"({}{{"point_id": {}, "repetition": {}, "attempt": {}, "class": {}, "reason": {}, "run_dir": {}}})",
                       first ? "" : ", ", json_string(run.point_id), run.repetition, run.attempt, json_string(run.failure_class),
                       json_string(run.failure_reason), json_string(run.run_dir));
    first = false;
  }
  out += R"(], "tables": [)";
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (i) out += ", ";
    append_table(out, tables[i]);
  }
  out += "], \"forecast\": " + forecast_actual_json(forecast_actual(data));
  // As report.html: the efficiency section where a run recorded a request or a usage (report/html.cpp).
  const bool efficient = !data.requests.empty() || !data.usage.empty();
  out += ", \"efficiency\": " + (efficient ? efficiency_points_json(efficiency(data)) : std::string("null"));
  out += ", \"energy\": " + energy_json(energy_lines(results)) + ", \"timelines\": " + timelines_json(timelines);
  return out + ", " + change_points_json(change_points) + "}\n";
}

}  // namespace sweep::report
