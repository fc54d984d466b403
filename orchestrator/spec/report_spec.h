#pragma once
// What a report declares (docs/reports.md): tables and figures, from the `report:` section of an
// experiment or from a separate report file. Plain data, produced by spec/load_report.cpp and consumed
// by report/. Names of parameters and metrics are checked against a campaign only when it is reported;
// each element keeps its SourceLocation so that check can point at the file.
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "util/error.h"

namespace sweep::spec {

/// The version of a separate report file (`format: 1`; the `report:` section of an experiment follows
/// the experiment's format).
inline constexpr int kReportFormatVersion = 1;

/// What a cell shows around its mean: the 95% confidence interval's half-width, the sample standard
/// deviation, or nothing.
enum class Spread { ci95, sd, none };

/// Metrics derived across points against a baseline point (docs/reports.md#derived-metrics).
/// speedup: T_n/T_1 for higher-is-better metrics, T_1/T_n for lower-is-better ones; scaling: speedup/n
/// (S_n = T_n/(n·T_1) for throughputs, T_1/(n·T_n) for times); efficiency: 100·scaling, in percent.
enum class DerivedMetric { none, speedup, scaling, efficiency };

/// Parameter values by name, as written (compared with the canonical text of stored values).
using ParamMatch = std::vector<std::pair<std::string, std::string>>;

/// The baseline point of a point p (docs/reports.md#baselines): the point whose `match` parameters take
/// these values and whose every other non-derived parameter equals p's, except the parameters in
/// `ignore`. `baseline: {nodes: 1, gpus_per_node: 1}` is `match` alone; `baseline: {match: {...},
/// ignore: [parallelism]}` lets one 1x1 point serve the DP, TP and PP points alike. Two points that
/// could both serve are an error at `at`.
struct Baseline {
  ParamMatch match;
  std::vector<std::string> ignore;
  SourceLocation at;
  bool empty() const { return match.empty(); }
};

/// An input of the report's model: a constant, or the name of a parameter (its numeric value at the
/// point) or of a metric (its mean at the point). Neither set: the default (report/predicted.h).
struct ModelInput {
  std::optional<double> number;
  std::string name;
  SourceLocation at;
  bool given() const { return number || !name.empty(); }
};

/// The analytical model a report evaluates at every point (docs/reports.md#predicted-values): the
/// predictions become metrics named "model:<quantity>" (report/predicted.h), which tables (`predicted:`
/// columns) and `kind: model` figures show next to the measured values.
struct ReportModel {
  bool declared = false;
  Baseline baseline;      // the point whose `time` is the single-GPU time
  std::string time;      // the measured epoch-time metric
  std::string link;      // an interconnect (sweep model --list-interconnects), or a parameter holding one
  ModelInput bandwidth;  // GB/s one direction; replaces the link's
  ModelInput latency_us; // µs; replaces the link's
  int transfers = 1;     // 2: both directions share the bandwidth (seed 000's back-of-envelope)
  std::string dtype = "fp32";  // activations: bf16, fp16, fp32, fp64, or a parameter holding one
  std::string gradient_dtype;  // the all-reduced gradients; "" = dtype
  ModelInput parameters, dp, tp, pp, microbatches, batch, seq, width, layers, steps, allreduce, vocab;
  SourceLocation at;
};

/// One column of a table in the explicit-columns form: exactly one of param, metric, predicted or value
/// is set.
struct ReportColumn {
  std::string param;      // a parameter's value
  std::string metric;     // a metric's statistics (or, with `derived`, a derived metric of it)
  std::string predicted;  // a quantity of the report's model; `metric` is then "model:<predicted>"
  std::string value;      // a constant text, e.g. "DDP"
  DerivedMetric derived = DerivedMetric::none;
  std::string label;   // the header; "" = the name, with the unit in parentheses
  int digits = 0;      // declared significant digits; 0 = the table's
  SourceLocation at;
  std::string unit;        // a metric column: its unit, converted from the metric's (report/units.h); "" = the metric's
  double scale = 1;        // a metric column: every value is multiplied by this, after the conversion
  SourceLocation unit_at;  // where `unit` was written (its errors point there)
  std::string group;       // a metric column: LaTeX's spanning header over the consecutive columns of one group
};

/// How report.tex sets a table in a paper (docs/reports.md#latex-tables). column: a `table` fitted to the
/// column; text: a `table*` fitted to the text width (both columns); natural: a `table` at its natural
/// width, never scaled.
enum class TableWidth { column, text, natural };
/// What the LaTeX caption says: the table's title alone, or (full) the title, then the campaign and how
/// cells read.
enum class CaptionText { title, full };

/// The LaTeX options of a table (keys `label`, `caption`, `width`, `float`, `siunitx`).
struct LatexTableOptions {
  std::string label;                          // "" = "tab:<name>"
  CaptionText caption = CaptionText::title;
  TableWidth width = TableWidth::column;
  bool floating = true;                       // false: a bare tabular, no environment, no caption or label
  bool siunitx = false;                       // true: siunitx S columns (the document loads siunitx)
};

struct ReportTable {
  std::string name;   // file stem and LaTeX label: [A-Za-z0-9_.-]+
  std::string title;  // caption; "" = generated
  ParamMatch where;   // only points whose parameters equal these
  // The pivot form: rows x cols per metric (as `sweep report --rows/--cols/--metrics`).
  std::vector<std::string> rows, cols, metrics;
  // The pivot form's headers of its parameters ("lr" -> "Learning rate"): row headers, spanning headers,
  // "Learning rate=0.1" column headers. Parameters not named keep their names.
  ParamMatch labels;
  // The explicit-columns form: one row per point (ordered by `rows`, then point order).
  std::vector<ReportColumn> columns;
  Baseline baseline;  // the baseline point of derived columns
  Spread spread = Spread::ci95;
  int digits = 0;  // declared significant digits; 0 = not declared: rounded by the uncertainty (report/rounding.h)
  LatexTableOptions latex;
  SourceLocation at;
};

/// bars: grouped bars of y per x, one bar per series; lines: y vs x with 95% CI error bars, one line per
/// series; scaling: the scaling factor of y vs x per series, with the ideal line at 1; model: measured y
/// and the `predicted` value vs x, per series.
enum class FigureKind { bars, lines, scaling, model };

/// The width of a figure's paper version (docs/reports.md#figures-for-a-paper): a column of a two-column
/// venue (3.0 in), its text width (6.2 in), or as many inches as `ReportFigure::width_in` says.
enum class FigureWidth { column, text, inches };

/// A user's gnuplot file of `set`/`unset` lines (`style:`), applied after a figure's generated settings.
/// `path` is as written, relative to the experiment's directory; report/figure_style.h resolves it and
/// fills `text` with what it read and checked, which the figure's script carries (never the path: the
/// file could change between the check and gnuplot's read).
struct StyleFile {
  std::string path;
  SourceLocation at;
  std::string text;
};

struct ReportFigure {
  std::string name;
  std::string title;
  FigureKind kind = FigureKind::lines;
  std::string x;                    // a parameter
  std::string y;                    // a metric
  std::string predicted;            // model: a parameter (e.g. a derived value) or a metric, e.g. "model:epoch_time"
  std::vector<std::string> series;  // parameters; one series per combination of their values
  std::string facets;               // a parameter: one panel per value; "" = one panel
  ParamMatch where;
  Baseline baseline;  // scaling: as for tables
  bool log_x = false, log_y = false;
  std::string x_label, y_label;  // "" = the name (and unit)
  // Names of the x, series and facets parameters as the figure shows them: the key ("Learning rate=0.1"),
  // facet titles, and the x axis without `xlabel`. Parameters not named keep their names.
  ParamMatch labels;
  FigureWidth width = FigureWidth::column;
  double width_in = 0;      // FigureWidth::inches: the width, 1 to 20 (`width: 4.5in`)
  bool paper_title = true;  // false: `title` is sweep's own (a default or trend figure's), left out of the paper version
  std::vector<StyleFile> styles;  // loaded in this order: the report's figure_style, then the figure's style
  SourceLocation at;
};

/// One of this campaign's metrics, carried to the points of a joined campaign (`join.metrics`).
struct CarriedMetric {
  std::string metric;  // its name here
  std::string as;      // its name there (never empty: the loader puts `metric` when `as` is left out)
  double scale = 1;    // every value is multiplied by this (1e-6: µs to s)
  std::string unit;    // its unit there; "" = the unit it has here
  SourceLocation at;
};

/// Tables and figures over the points of another campaign, such as e15's training runs, with some of
/// this campaign's metrics, such as e16's all-reduce time, carried to them (docs/reports.md#joins).
struct ReportJoin {
  std::string experiment;       // the latest campaign of this experiment, unless `sweep report --join LABEL`
  std::vector<std::string> on;  // parameters of both: a point there takes the point here with equal values
  std::vector<CarriedMetric> metrics;
  ReportModel model;  // evaluated at the joined points, after the metrics are carried
  std::vector<ReportTable> tables;
  std::vector<ReportFigure> figures;
  SourceLocation at;
};

struct ReportSpec {
  ReportModel model;
  std::vector<ReportTable> tables;
  std::vector<ReportFigure> figures;
  std::optional<ReportJoin> join;
  std::vector<StyleFile> figure_styles;  // `figure_style`: loaded for every figure, before its own `style`
  bool declared = false;  // false when the experiment has no `report:` section
};

/// The names used in messages and files: "speedup", "scaling", "efficiency"; "bars", "lines", ...
std::string_view derived_name(DerivedMetric d);
std::string_view figure_kind_name(FigureKind k);

/// The quantities the report's model predicts at a point, with their units: epoch_time (s),
/// compute_time (s per epoch), comm_time (s per epoch), scaling_factor, bytes_per_step (B per rank),
/// bubble. Each is reported as the metric "model:<name>".
struct PredictedQuantity {
  std::string_view name;
  std::string_view unit;
};
std::span<const PredictedQuantity> predicted_quantities();
inline constexpr std::string_view kPredictedPrefix = "model:";

}  // namespace sweep::spec
