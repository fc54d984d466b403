#include "report/energy_per_step.h"

#include <fmt/core.h>

#include <array>
#include <optional>

#include "model/energy.h"
#include "report/points_view.h"
#include "util/escape.h"
#include "util/sinks.h"

namespace sweep::report {
namespace {

constexpr std::array<const char*, 2> kJoules{"energy_j", "gpu_energy_j"};

std::optional<double> mean_of(const PointResult& r, const char* metric) {
  const auto it = r.metrics.find(metric);
  if (it == r.metrics.end() || it->second.summary.n == 0) return std::nullopt;
  return it->second.summary.mean;
}

/// The steps the joules cover, and how they were found; nullopt when no rule applies.
struct Steps {
  double count = 0;
  std::string how;
};
using StepRule = std::optional<Steps> (*)(const PointResult&, const char* joules);

std::optional<Steps> given_steps(const PointResult& r, const char*) {
  const auto steps = number_at(r, "steps");
  if (!steps) return std::nullopt;
  return Steps{*steps, fmt::format("over {:g} steps", *steps)};
}

std::optional<Steps> epochs_steps(const PointResult& r, const char*) {
  const auto per_epoch = mean_of(r, "steps_per_epoch");
  const auto epoch = r.metrics.find("epoch_time");
  if (!per_epoch || epoch == r.metrics.end()) return std::nullopt;
  const double epochs = epoch->second.by_index.empty() ? 1.0 : static_cast<double>(epoch->second.by_index.size());
  return Steps{*per_epoch * epochs, fmt::format("over {:g} steps: steps_per_epoch × {:g} epochs", *per_epoch * epochs, epochs)};
}

/// Joules per step as the average power times the mean step time: a step count of joules / (that).
std::optional<Steps> timed_steps(const PointResult& r, const char*) {
  const auto span = mean_of(r, "telemetry_span_s"), step = mean_of(r, "step_time_mean");
  if (!span || !step || !(*span > 0) || !(*step > 0)) return std::nullopt;
  return Steps{*span / *step, fmt::format("average power over telemetry_span_s × step_time_mean {:.4g} s", *step)};
}

constexpr std::array<StepRule, 3> kStepRules{given_steps, epochs_steps, timed_steps};

EnergyLine line_at(const PointResult& r) {
  EnergyLine line{point_label(*r.point), "", r.point->point_id, std::nullopt, "", ""};
  for (const char* joules : kJoules) {
    const auto energy = mean_of(r, joules);
    if (!energy) continue;
    line.joules_from = joules;
    for (const auto rule : kStepRules)
      if (const auto steps = rule(r, joules)) {
        line.split = model::split_energy(energy, steps->count, mean_of(r, "model:comm_time"), mean_of(r, "model:epoch_time"));
        line.steps_from = steps->how;
        line.text = model::energy_line(line.split, fmt::format("{}, {}", joules, steps->how));
        return line;
      }
    line.text = fmt::format("energy: not measured per step ({} {:.4g} J, but no steps: give a parameter or metric \"steps\")", joules, *energy);
    return line;
  }
  line.text = model::energy_line(std::nullopt);
  return line;
}

/// A JSON string, or null for "".
std::string string_or_null(const std::string& s) { return s.empty() ? "null" : json_string(s); }

std::string number_or_null(const std::optional<double>& v) { return v ? json_number(*v) : "null"; }

}  // namespace

std::vector<EnergyLine> energy_lines(const std::vector<PointResult>& results) {
  bool joules = false, model = false;
  for (const auto& r : results) {
    joules = joules || mean_of(r, kJoules[0]) || mean_of(r, kJoules[1]);
    model = model || mean_of(r, "model:epoch_time");
  }
  std::vector<EnergyLine> lines;
  if (!joules && model)
    lines.push_back({"every point", model::energy_line(std::nullopt) + " (no run has energy_j or gpu_energy_j)", "", {}, "", ""});
  if (!joules) return lines;
  for (const auto& r : results) lines.push_back(line_at(r));
  return lines;
}

std::string energy_markdown(const std::vector<EnergyLine>& lines) {
  if (lines.empty()) return "";
  std::string out = "## Energy per step\n\n";
  for (const auto& l : lines) out += fmt::format("- {}: {}\n", markdown_cell(l.point), markdown_cell(l.text));
  return out + "\n";
}

std::string energy_html(const std::vector<EnergyLine>& lines) {
  if (lines.empty()) return "";
  std::string out = "<h2>Energy per step</h2>\n<ul id=\"energy\">\n";
  for (const auto& l : lines) out += fmt::format("<li>{}: {}</li>\n", xml_text(l.point), xml_text(l.text));
  return out + "</ul>\n";
}

std::string energy_json(const std::vector<EnergyLine>& lines) {
  std::string out;
  for (const auto& l : lines) {
    if (l.point_id.empty()) continue;  // the "every point" line: no point has joules
    const auto& s = l.split;
    out += fmt::format(R"({}{{"point": {}, "label": {}, "per_step_j": {}, "comm_share": {}, "comm_per_step_j": {}, )"
                       R"("joules_from": {}, "steps_from": {}, "text": {}}})",
                       out.empty() ? "" : ", ", json_string(l.point_id), json_string(l.point),
                       number_or_null(s ? std::optional(s->per_step_j) : std::nullopt), number_or_null(s ? s->comm_share : std::nullopt),
                       number_or_null(s ? s->comm_per_step_j : std::nullopt), string_or_null(l.joules_from),
                       string_or_null(l.steps_from), json_string(l.text));
  }
  return out.empty() ? "null" : "[" + out + "]";
}

}  // namespace sweep::report
