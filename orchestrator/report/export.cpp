#include "report/export.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "report/points_view.h"
#include "store/store.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// Export format 3: a parameter whose name begins with `param_` is exported as param_<name> too (in
/// format 2, parameters `v` and `param_v` both became column param_v). Format 2: the index column is
/// `idx` (as in the database's views), and `elapsed_s` is new.
constexpr int kExportFormat = 3;
constexpr std::array<std::string_view, 11> kColumns{"campaign", "point_id", "repetition", "attempt", "state", "elapsed_s",
                                                    "metric",   "idx",      "value",      "unit",    "better"};

/// A point's parameters, rendered once: the CSV cells and the JSON members, in the columns' order.
struct PointCells {
  std::string csv, json;
};

/// The JSON lines' format marker: reserved like the fixed columns, so no parameter can overwrite it.
constexpr std::string_view kFormatMarker = "v";

/// A parameter's column: its name, or param_<name> for a name of a fixed column, the format marker, or
/// one that begins with param_ itself. One column per name: a name kept as it is never begins with
/// param_, and no reserved name does.
std::string column_name(const std::string& param) {
  const bool reserved = param == kFormatMarker || std::find(kColumns.begin(), kColumns.end(), param) != kColumns.end() ||
                        param.rfind("param_", 0) == 0;
  return reserved ? "param_" + param : param;
}

/// Parameter names of the campaign in first-position order, each once.
std::vector<std::string> parameter_names(const std::vector<store::PointRecord>& points) {
  std::vector<std::string> names;
  for (const auto& p : points)
    for (const auto& param : p.params)
      if (std::find(names.begin(), names.end(), param.name) == names.end()) names.push_back(param.name);
  return names;
}

std::string json_value(const store::ParamRecord& p) {
  const Value v = param_value(p);
  if (v.is_int() || v.is_bool()) return p.value;  // already JSON literals
  if (v.is_real()) return json_number(v.as_real());  // inf, nan: null
  return json_string(p.value);
}

std::map<std::string, PointCells, std::less<>> point_cells(const std::vector<store::PointRecord>& points,
                                                            const std::vector<std::string>& names) {
  std::map<std::string, PointCells, std::less<>> out;
  for (const auto& p : points) {
    PointCells& cells = out[p.point_id];
    for (const auto& name : names) {
      const auto it = std::find_if(p.params.begin(), p.params.end(), [&](const auto& x) { return x.name == name; });
      cells.csv += "," + (it == p.params.end() ? std::string() : csv_field(it->value));
      cells.json += fmt::format(", {}: {}", json_string(column_name(name)), it == p.params.end() ? "null" : json_value(*it));
    }
  }
  return out;
}

}  // namespace

std::size_t export_campaign(const store::Store& db, const std::string& label, ExportFormat format, std::FILE* out) {
  const auto campaign = db.find_campaign(label);
  if (!campaign) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", label, db.path()));
  const auto points = db.points(campaign->id);
  const std::vector<std::string> names = parameter_names(points);
  const auto cells = point_cells(points, names);
  const std::string campaign_csv = csv_field(label), campaign_json = json_string(label);
  if (format == ExportFormat::csv) {
    std::vector<std::string> header{"campaign", "point_id"};
    for (const auto& name : names) header.push_back(csv_field(column_name(name)));
    for (std::size_t i = 2; i < kColumns.size(); ++i) header.emplace_back(kColumns[i]);
    fmt::print(out, "{}\n", join(header, ","));
  }
  std::string line;
  return db.for_each_metric(campaign->id, [&](const store::MetricRowView& r) {
    const PointCells& p = cells.find(r.point_id)->second;
    line.clear();
    const std::string elapsed = r.elapsed_s ? json_number(*r.elapsed_s) : std::string();
    if (format == ExportFormat::csv)
      fmt::format_to(std::back_inserter(line), "{},{}{},{},{},{},{},{},{},{},{},{}\n", campaign_csv, csv_field(r.point_id),
                     p.csv, r.repetition, r.attempt, store::state_name(r.state), elapsed, csv_field(r.name), r.index,
                     json_number(r.value), csv_field(r.unit), csv_field(r.better));
    else
      fmt::format_to(std::back_inserter(line),
                     R"({{"v": {}, "campaign": {}, "point_id": {}{}, "repetition": {}, "attempt": {}, "state": "{}", )"
                     R"("elapsed_s": {}, "metric": {}, "idx": {}, "value": {}, "unit": {}, "better": {}}})"
                     "\n",
                     kExportFormat, campaign_json, json_string(r.point_id), p.json, r.repetition, r.attempt,
                     store::state_name(r.state), elapsed.empty() ? "null" : elapsed, json_string(r.name), r.index,
                     json_number(r.value), json_string(r.unit), json_string(r.better));
    std::fwrite(line.data(), 1, line.size(), out);
  });
}

}  // namespace sweep::report
