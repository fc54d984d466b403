#include "report/forecast_actual.h"

#include <fmt/format.h>

#include <unordered_map>

#include "stats/summary.h"
#include "util/escape.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

std::string label_of(const store::PointRecord& p) {
  std::string out;
  for (const auto& param : p.params)
    if (!param.derived) out += (out.empty() ? "" : " ") + param.name + "=" + param.value;
  return out.empty() ? p.point_id : out;
}

std::string seconds(std::optional<double> s) { return s ? fmt::format("{:.6g}", *s) : "unknown"; }
std::string json_or_null(std::optional<double> v) { return v ? json_number(*v) : "null"; }

/// The cells of one row, as text (escaped by the writer).
std::vector<std::string> cells(const ForecastActualRow& r) {
  return {r.label, std::to_string(r.forecast.runs), std::to_string(r.forecast.gpus), seconds(r.forecast.expected_s),
          seconds(r.forecast.upper_s), r.forecast.source, std::to_string(r.ended), seconds(r.median_elapsed_s),
          fmt::format("{:.4f}", r.gpu_hours_expected), fmt::format("{:.4f}", r.gpu_hours_upper),
          fmt::format("{:.4f}", r.gpu_hours_used)};
}

constexpr const char* kHeaders[] = {"point", "runs", "GPUs", "expected s", "upper s", "source", "runs ended",
                                    "median elapsed s", "GPU-h expected", "GPU-h upper", "GPU-h used"};

std::string totals_sentence(const ForecastActual& f) {
  return fmt::format("Total: {:.4f} GPU-hours expected, {:.4f} upper, {:.4f} used{}.", f.gpu_hours_expected,
                     f.gpu_hours_upper, f.gpu_hours_used,
                     f.unknown ? fmt::format("; {} points had no forecast duration", f.unknown) : "");
}

}  // namespace

ForecastActual forecast_actual(const CampaignData& data) {
  ForecastActual out;
  std::unordered_map<std::string, std::vector<double>> elapsed;
  for (const auto& run : data.runs)
    if (run.state != store::RunState::pending && run.state != store::RunState::running && run.elapsed_s)
      elapsed[run.point_id].push_back(*run.elapsed_s);
  std::unordered_map<std::string, const store::PointRecord*> points;
  for (const auto& p : data.points) points.emplace(p.point_id, &p);
  for (const store::ForecastRecord& f : data.forecast) {
    ForecastActualRow row{f.point_id, f.point_id, f};
    if (const auto it = points.find(f.point_id); it != points.end()) row.label = label_of(*it->second);
    const std::vector<double>& e = elapsed[f.point_id];
    row.ended = e.size();
    double sum = 0;
    for (double s : e) sum += s;
    if (!e.empty()) row.median_elapsed_s = stats::summarize(e).median;
    row.gpu_hours_expected = f.runs * f.gpus * f.expected_s.value_or(0) / 3600;
    row.gpu_hours_upper = f.runs * f.gpus * f.upper_s.value_or(0) / 3600;
    row.gpu_hours_used = f.gpus * sum / 3600;
    out.gpu_hours_expected += row.gpu_hours_expected;
    out.gpu_hours_upper += row.gpu_hours_upper;
    out.gpu_hours_used += row.gpu_hours_used;
    if (!f.expected_s) ++out.unknown;
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string forecast_actual_markdown(const ForecastActual& f) {
  if (f.rows.empty()) return "";
  std::string out = "## Forecast against actual\n\nWhat `sweep run` forecast for each point before it started "
                    "(docs/forecasts.md), and what its runs took.\n\n|";
  for (const char* h : kHeaders) out += fmt::format(" {} |", h);
  out += "\n| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& r : f.rows) {
    out += "|";
    for (const auto& c : cells(r)) out += " " + markdown_cell(c) + " |";
    out += "\n";
  }
  return out + "\n" + totals_sentence(f) + "\n\n";
}

std::string forecast_actual_html(const ForecastActual& f) {
  if (f.rows.empty()) return "";
  std::string out = "<h2>Forecast against actual</h2>\n<table>\n<tr>";
  for (const char* h : kHeaders) out += fmt::format("<th>{}</th>", h);
  out += "</tr>\n";
  for (const auto& r : f.rows) {
    out += "<tr>";
    for (const auto& c : cells(r)) out += "<td>" + xml_text(c) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n<p>" + xml_text(totals_sentence(f)) + "</p>\n";
}

std::string forecast_actual_json(const ForecastActual& f) {
  if (f.rows.empty()) return "null";
  std::string out = R"({"points": [)";
  for (std::size_t i = 0; i < f.rows.size(); ++i) {
    const auto& r = f.rows[i];
    out += fmt::format(
        R"({}{{"point_id": {}, "label": {}, "runs": {}, "nodes": {}, "gpus": {}, "expected_s": {}, "upper_s": {}, )"
        R"("source": {}, "energy_j": {}, "runs_ended": {}, "median_elapsed_s": {}, "gpu_hours_expected": {}, )"
        R"("gpu_hours_upper": {}, "gpu_hours_used": {}}})",
        i ? ", " : "", json_string(r.point_id), json_string(r.label), r.forecast.runs, r.forecast.nodes, r.forecast.gpus,
        json_or_null(r.forecast.expected_s), json_or_null(r.forecast.upper_s), json_string(r.forecast.source),
        json_or_null(r.forecast.energy_j), r.ended, json_or_null(r.median_elapsed_s), json_number(r.gpu_hours_expected),
        json_number(r.gpu_hours_upper), json_number(r.gpu_hours_used));
  }
  return out + fmt::format(R"(], "totals": {{"gpu_hours_expected": {}, "gpu_hours_upper": {}, "gpu_hours_used": {}, "unknown": {}}}}})",
                           json_number(f.gpu_hours_expected), json_number(f.gpu_hours_upper),
                           json_number(f.gpu_hours_used), f.unknown);
}

}  // namespace sweep::report
