#include "report/write_report.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/campaign_data.h"
#include "report/csv.h"
#include "report/declared_tables.h"
#include "report/energy_per_step.h"
#include "report/repetitions.h"
#include "report/figure.h"
#include "report/figure_drawing.h"
#include "report/figure_paper.h"
#include "report/figure_style.h"
#include "report/history.h"
#include "report/html.h"
#include "report/join.h"
#include "report/json_report.h"
#include "report/latex.h"
#include "report/markdown.h"
#include "report/predicted.h"
#include "report/script_seal.h"
#include "report/presets.h"
#include "report/size_tables.h"
#include "report/timelines.h"
#include "spec/load_report.h"
#include "util/atomic_file.h"
#include "util/campaign_label.h"
#include "util/error.h"
#include "util/names.h"
#include "util/safe_files.h"
#include "telemetry/run_metrics.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::report {
namespace fs = std::filesystem;
namespace {

/// The per-point table (unless every metric is per message size) and the per-size tables. The per-point
/// table shows the workload's metrics; sweep's measurements of the runs (telemetry/run_metrics.h) only
/// when the workload reported none of its own.
std::vector<Table> undeclared_tables(const PointsView& points) {
  const std::vector<std::string>& per_size = points.size_indexed;
  TableSpec per_point;
  for (const bool measurements : {false, true}) {
    for (const auto& m : points.metrics)
      if (std::find(per_size.begin(), per_size.end(), m) == per_size.end() && telemetry::is_run_metric(m) == measurements)
        per_point.metrics.push_back(m);
    if (!per_point.metrics.empty() || !per_size.empty()) break;
  }
  std::vector<Table> tables;
  if (per_size.empty() || !per_point.metrics.empty()) tables = build_tables(points, per_point);
  for (auto& t : size_tables(points)) tables.push_back(std::move(t));
  return tables;
}

std::vector<Table> all_tables(const PointsView& points, const ReportRequest& request, const spec::ReportSpec& spec) {
  const TableSpec& ad_hoc = request.ad_hoc;
  const bool asked = !ad_hoc.rows.empty() || !ad_hoc.cols.empty() || !ad_hoc.metrics.empty();
  if (asked) return build_tables(points, ad_hoc);
  std::vector<Table> tables;
  // Undeclared: the per-point table of the metrics that are not per message size, a table per size
  // of those that are, then the seed-shaped tables whose metrics the campaign has.
  if (spec.tables.empty()) tables = undeclared_tables(points);
  for (const auto& t : spec.tables.empty() ? default_tables(points) : spec.tables)
    for (auto& built : build_declared(points, t)) tables.push_back(std::move(built));
  return tables;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// What the report shows, before anything is written.
struct Parts {
  std::vector<Table> tables;
  std::vector<FigureText> figures;
  std::vector<std::string> notes;
  std::vector<HistoryChangePoint> changes;  // of the history, when asked for
};

/// The tables and figures of the report's join (report/join.h), or a note that there was nothing to join.
void add_join(const store::Store& db, const PointsView& points, const ReportRequest& request,
              const spec::ReportSpec& spec, Parts& parts) {
  if (!spec.join) return;
  auto joined = joined_parts(db, points, *spec.join, request.join, request.figures, request.interconnects);
  if (!joined) {
    parts.notes.push_back(fmt::format("no campaign of experiment \"{}\" to join (report.join at {}): its tables and "
                                      "figures are left out; run it, or name one with --join LABEL",
                                      spec.join->experiment, spec.join->at.str()));
    return;
  }
  for (auto& t : joined->tables) parts.tables.push_back(std::move(t));
  for (auto& f : joined->figures) parts.figures.push_back(std::move(f));
}

/// The history's tables, its change points and trend figures (report/history.h), when asked for. The
/// change-points table is there once the history is long enough to have one, even when it has none.
void add_history(const store::Store& db, const std::string& label, const ReportRequest& request, Parts& parts) {
  if (!request.history) return;
  const History history = load_history(db, *request.history);
  for (auto& t : history_tables(history)) parts.tables.push_back(std::move(t));
  parts.changes = history_change_points(history);
  if (history.nights.size() >= 2 * stats::ChangePointOptions{}.min_segment) parts.tables.push_back(change_point_table(parts.changes));
  if (request.figures)
    for (auto& f : trend_figures(history, label, parts.changes)) parts.figures.push_back(std::move(f));
}

/// Runs `f`, which reads the report section of the experiment stored with `campaign` when `stored`: an
/// Error(invalid_experiment) from it says that the stored copy is what was read (its place names the
/// file it came from, which may have changed since) and how to report with another.
template <typename F>
void from_stored_copy(const store::CampaignRecord& campaign, bool stored, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    if (!stored || e.kind() != ErrorKind::invalid_experiment) throw;
    throw Error(e.kind(),
                fmt::format("{} (in the experiment stored with campaign {}, from {}, sha256 {}…; the file on disk is not "
                            "read: give a fixed report section with --spec FILE, an experiment or a report file)",
                            e.message(), campaign.label, campaign.spec_path, campaign.spec_hash.substr(0, 12)),
                e.where());
  }
}

void add_file(ReportOutput& out, const std::string& name, const std::string& text) {
  out.files.push_back(out.dir + "/" + name);
  write_file_atomically(out.files.back(), text);
}

/// Writes a figure's script: over figures/<file>.gp unless that was edited by hand since sweep wrote it
/// (report/script_seal.h), then beside it, with a note saying so. Returns the script's name in figures/.
std::string write_script(const FigureText& f, ReportOutput& out) {
  const std::string gp = "figures/" + f.file + ".gp";
  const fs::path path = fs::path(out.dir) / gp;
  std::error_code ec;
  const bool there = fs::exists(path, ec);
  const ScriptPlan plan = plan_script(gp, script_on_disk(there ? std::optional(read_file(path)) : std::nullopt));
  if (plan.kept) out.notes.push_back(kept_script_message(out.dir + "/" + gp));
  else fs::remove(fs::path(out.dir) / (gp + ".new"), ec);  // a stale offer of an earlier report
  add_file(out, plan.path, f.script);
  return fs::path(plan.path).filename().string();
}

/// Writes each figure's script and data under <out.dir>/figures and runs gnuplot on it.
std::vector<HtmlFigure> draw_figures(const std::vector<FigureText>& texts, ReportOutput& out) {
  std::vector<HtmlFigure> figures;
  if (!texts.empty()) make_directories((fs::path(out.dir) / "figures" / kPaperDir).string());
  for (const auto& f : texts) {
    HtmlFigure h{f.name, f.file, f.title, "", ""};
    if (f.points == 0) {
      h.error = "no values to plot (no succeeded run has the metric)";
    } else {
      write_script(f, out);
      add_file(out, "figures/" + f.file + ".dat", f.data);
      Drawing drawn = draw_figure(out.dir + "/figures", f);
      h.svg = std::move(drawn.svg);
      h.error = std::move(drawn.error);
      if (!drawn.warnings.empty())  // a key gnuplot could not fit drops entries: the user hears of it
        out.notes.push_back(fmt::format("gnuplot warned while drawing figure {}: {}", f.name,
                                        join(split(trim(drawn.warnings), '\n'), "; ")));
      out.files.insert(out.files.end(), drawn.files.begin(), drawn.files.end());
    }
    if (!h.error.empty()) out.figure_errors.push_back(terminal_text(f.name) + ": " + terminal_text(h.error));
    figures.push_back(std::move(h));
  }
  return figures;
}

}  // namespace

ReportOutput write_report(const store::Store& db, const std::string& label, const ReportRequest& request,
                          const std::string& reports_dir) {
  require_campaign_label(label);  // a local label, or an imported LABEL@SYSTEM
  const CampaignData data = load_campaign(db, label);
  std::vector<PointResult> results = point_results(data);
  std::optional<PointsView> points;  // built once, after the model's predicted metrics are added
  Parts parts;
  from_stored_copy(data.campaign, !request.spec, [&] {
    // Style files are relative to the experiment's directory, or to the --spec file's.
    const std::string style_dir = request.spec ? "" : data.campaign.experiment_dir;
    spec::ReportSpec spec =
        request.spec ? *request.spec : spec::report_of_experiment(data.campaign.spec_text, data.campaign.spec_path);
    if (request.figures) spec = with_styles(std::move(spec), style_dir);
    add_predictions(results, spec.model, request.interconnects);
    points.emplace(results);
    parts.tables = all_tables(*points, request, spec);
    if (request.figures)
      for (const auto& g : spec.figures.empty() && !spec.join ? with_styles(default_figures(*points), spec.figure_styles, style_dir)
                                                              : spec.figures)
        parts.figures.push_back(build_figure(*points, g, label));
    add_join(db, *points, request, spec, parts);
  });
  add_history(db, label, request, parts);

  if (const std::size_t skipped = data.metrics.skipped_values())
    parts.notes.push_back(fmt::format("the campaign has more than {} metric names: the {} values of the names past the "
                                      "first {} were not read (docs/reports.md)", MetricSamples::kMaxNames, skipped,
                                      MetricSamples::kMaxNames));
  ReportOutput out;
  out.notes = std::move(parts.notes);
  out.change_points = parts.changes;
  out.dir = (fs::path(reports_dir) / label).string();
  require_trusted(reports_dir, "reports directory");  // util/safe_files.h: refused unless yours or shared on purpose
  make_directories(out.dir);
  require_trusted(out.dir, "reports directory");
  const std::vector<HtmlFigure> figures = draw_figures(parts.figures, out);
  const auto& tables = parts.tables;
  out.markdown = markdown_report(data, tables, request.verdict ? verdict_markdown(*request.verdict) : "");
  for (const auto& f : figures)
    if (!f.svg.empty()) out.markdown += fmt::format("![{}](figures/{}.svg)\n\n", markdown_cell(f.title), f.file);
  const std::optional<RepetitionsView> repetitions = repetitions_view(data, *points);
  if (repetitions) out.markdown += repetitions_markdown(*repetitions);
  // Energy per step next to the model (report/energy_per_step.h); the runs' telemetry timelines (report/timelines.h).
  const std::vector<EnergyLine> energy = energy_lines(results);
  // An imported campaign's telemetry files are on the system it ran on: its provenance never names a file here.
  const Timelines timelines = data.campaign.origin_database_id.empty() ? load_timelines(db, data) : Timelines{};
  out.markdown += energy_markdown(energy) + timelines_markdown(timelines);
  add_file(out, "report.md", out.markdown);
  add_file(out, "report.html",
           html_report(data, tables, figures,
                       (repetitions ? repetitions_html(*repetitions) : "") + energy_html(energy) + timelines_html(timelines),
                       request.verdict ? verdict_html(*request.verdict) : ""));
  add_file(out, "report.json",
           json_report(data, results, parts.changes, tables, request.verdict ? verdict_json(*request.verdict) : "null", timelines));
  add_file(out, "report.tex", latex_report(label, tables));
  for (const auto& t : tables) add_file(out, fmt::format("report.{}.tex", latex_table_id(t)), latex_table_file(t, label));
  for (const auto& t : tables) {
    out.csv.push_back(csv_table(t));
    const std::string& id = !t.name.empty() ? t.name : t.title;
    add_file(out, id.empty() ? "report.csv" : fmt::format("report.{}.csv", safe_file_name(id)), out.csv.back());
  }
  return out;
}

}  // namespace sweep::report
