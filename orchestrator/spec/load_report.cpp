// Reader of `report:` (docs/reports.md): tables and figures, each a map of known keys.
#include "spec/load_report.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spec/load_baseline.h"
#include "spec/load_report_model.h"
#include "spec/load_sections.h"
#include "util/names.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

template <typename E>
struct Named {
  std::string_view name;
  E value;
};

constexpr std::array<Named<Spread>, 3> kSpreads{{{"ci95", Spread::ci95}, {"sd", Spread::sd}, {"none", Spread::none}}};
constexpr std::array<Named<DerivedMetric>, 3> kDerived{
    {{"speedup", DerivedMetric::speedup}, {"scaling", DerivedMetric::scaling}, {"efficiency", DerivedMetric::efficiency}}};
constexpr std::array<Named<FigureKind>, 4> kKinds{{{"bars", FigureKind::bars},
                                                   {"lines", FigureKind::lines},
                                                   {"scaling", FigureKind::scaling},
                                                   {"model", FigureKind::model}}};

constexpr std::array<Named<FigureWidth>, 2> kWidths{{{"column", FigureWidth::column}, {"text", FigureWidth::text}}};  // or "4.5in"
constexpr std::array<Named<TableWidth>, 3> kTableWidths{
    {{"column", TableWidth::column}, {"text", TableWidth::text}, {"natural", TableWidth::natural}}};
constexpr std::array<Named<CaptionText>, 2> kCaptions{{{"title", CaptionText::title}, {"full", CaptionText::full}}};

constexpr std::array<PredictedQuantity, 6> kPredicted{{{"epoch_time", "s"},
                                                      {"compute_time", "s"},
                                                      {"comm_time", "s"},
                                                      {"scaling_factor", ""},
                                                      {"bytes_per_step", "B"},
                                                      {"bubble", ""}}};

template <typename E, std::size_t N>
E enum_at(const Field& f, const Source& src, const std::array<Named<E>, N>& table, std::string_view what) {
  const std::string text = scalar_text(f, src, what);
  std::vector<std::string> names;
  for (const auto& e : table) {
    if (e.name == text) return e.value;
    names.emplace_back(e.name);
  }
  fail_at(location(f, src), fmt::format("\"{}\" must be {} ({}), got \"{}\"{}", f.path, what, join(names, ", "), text,
                                        did_you_mean(text, names)));
}

template <typename E, std::size_t N>
std::string_view name_of(E value, const std::array<Named<E>, N>& table) {
  for (const auto& e : table)
    if (e.value == value) return e.name;
  return "none";
}

std::string name_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a parameter or metric name");
  if (text.empty()) fail_expected(f, src, "a parameter or metric name");
  return text;
}

std::vector<std::string> names_at(const Field& f, const Source& src) {
  std::vector<std::string> out;
  if (!f.value.IsSequence()) return {name_at(f, src)};
  for (const Field& item : list_items(f, src)) out.push_back(name_at(item, src));
  return out;
}

std::string file_name_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a name");
  if (text.empty() || text.size() > 128 || to_safe_name(text) != text)
    fail_expected(f, src, "a name of letters, digits, '.', '_' and '-' (it names files)");
  return text;
}

int digits_at(const Field& f, const Source& src) {
  return static_cast<int>(integer_in(f, src, 1, 17, "a number of significant digits from 1 to 17"));
}

std::string predicted_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a predicted quantity");
  std::vector<std::string> names;
  for (const auto& q : kPredicted) names.emplace_back(q.name);
  if (std::find(names.begin(), names.end(), text) == names.end())
    fail_at(location(f, src), fmt::format("\"{}\" must be a quantity of the model ({}), got \"{}\"{}", f.path,
                                          join(names, ", "), text, did_you_mean(text, names)));
  return text;
}

/// `scale:` of a carried metric or a metric column: a positive finite factor.
double scale_at(const Field& f, const Source& src) {
  const Value v = scalar_value(f, src);
  if (!v.is_number() || !(v.as_number() > 0) || !std::isfinite(v.as_number()))
    fail_expected(f, src, "a positive number (1e-6 turns microseconds into seconds)");
  return v.as_number();
}

std::string unit_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a unit");
  if (text.empty()) fail_expected(f, src, "a unit, e.g. GB/s, ms or MiB");
  return text;
}

/// `unit` and `scale` of a metric column; a derived column (a ratio) takes neither.
void read_column_unit(const std::vector<Field>& fields, const Source& src, ReportColumn& c) {
  const Field* unit = find_field(fields, "unit");
  const Field* scale = find_field(fields, "scale");
  if (!unit && !scale) return;
  const Field& first = unit ? *unit : *scale;
  if (c.metric.empty())
    fail_at(location(first, src), fmt::format("\"{}\" applies to a metric column; add \"metric\" or \"predicted\"", first.path));
  if (c.derived != DerivedMetric::none)
    fail_at(location(first, src), fmt::format("\"{}\": a {} column is a ratio and has no unit or scale", first.path,
                                              derived_name(c.derived)));
  if (unit) c.unit = unit_at(*unit, src), c.unit_at = location(*unit, src);
  if (scale) c.scale = scale_at(*scale, src);
}

ReportColumn read_column(const Field& item, const Source& src, bool has_model) {
  constexpr std::array<std::string_view, 10> kKeys{"param", "metric", "predicted", "value", "derived",
                                                   "label", "digits", "unit",      "scale", "group"};
  const auto fields = map_fields(item, src);
  check_keys(fields, kKeys, src);
  ReportColumn c;
  c.at = location(item, src);
  int sources = 0;
  if (const Field* f = find_field(fields, "param")) c.param = name_at(*f, src), ++sources;
  if (const Field* f = find_field(fields, "metric")) c.metric = name_at(*f, src), ++sources;
  if (const Field* f = find_field(fields, "predicted")) {
    c.predicted = predicted_at(*f, src), ++sources;
    if (!has_model)
      fail_at(location(*f, src), "a predicted column needs the report's \"model\" section (docs/reports.md#predicted-values)");
  }
  if (const Field* f = find_field(fields, "value")) c.value = scalar_text(*f, src, "a text"), ++sources;
  if (sources != 1)
    fail_at(c.at, fmt::format("\"{}\" needs exactly one of \"param\", \"metric\", \"predicted\" or \"value\"", item.path));
  if (!c.predicted.empty()) c.metric = std::string(kPredictedPrefix) + c.predicted;
  if (const Field* f = find_field(fields, "derived")) {
    c.derived = enum_at(*f, src, kDerived, "a derived metric");
    if (c.metric.empty())
      fail_at(location(*f, src), fmt::format("\"{}\" derives from a metric; add \"metric\" or \"predicted\"", f->path));
  }
  if (const Field* f = find_field(fields, "label")) c.label = scalar_text(*f, src, "a column header");
  if (const Field* f = find_field(fields, "digits")) c.digits = digits_at(*f, src);
  if (const Field* f = find_field(fields, "group")) {
    c.group = scalar_text(*f, src, "a group header");
    if (c.metric.empty())
      fail_at(location(*f, src), fmt::format("\"{}\" groups metric columns; parameter and value columns label the rows", f->path));
  }
  read_column_unit(fields, src, c);
  return c;
}

bool flag_at(const Field& f, const Source& src) {
  const Value v = scalar_value(f, src);
  if (!v.is_bool()) fail_expected(f, src, "true or false");
  return v.as_bool();
}

/// A LaTeX label of its own: what \ref names, so only letters, digits and ":._-".
std::string label_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a LaTeX label");
  const bool ok = !text.empty() && text.size() <= 128 && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '.' || c == '_' || c == '-';
  });
  if (!ok) fail_expected(f, src, "a LaTeX label of letters, digits, ':', '.', '_' and '-', e.g. tab:main");
  return text;
}

/// `label`, `caption`, `width`, `float` and `siunitx`: how report.tex sets the table.
void read_latex_options(const std::vector<Field>& fields, const Source& src, LatexTableOptions& o) {
  if (const Field* f = find_field(fields, "label")) o.label = label_at(*f, src);
  if (const Field* f = find_field(fields, "caption")) o.caption = enum_at(*f, src, kCaptions, "a caption");
  if (const Field* f = find_field(fields, "width")) o.width = enum_at(*f, src, kTableWidths, "a table width");
  if (const Field* f = find_field(fields, "float")) o.floating = flag_at(*f, src);
  if (const Field* f = find_field(fields, "siunitx")) o.siunitx = flag_at(*f, src);
}

ReportTable read_table(const Field& item, const Source& src, bool has_model) {
  constexpr std::array<std::string_view, 17> kKeys{"name",   "title",  "where",   "rows",  "cols",   "metrics",
                                                   "columns", "baseline", "spread", "digits", "format", "label",
                                                   "caption", "width",  "float",   "siunitx", "labels"};
  const auto fields = map_fields(item, src);
  check_keys(fields, kKeys, src);
  ReportTable t;
  t.at = location(item, src);
  const Field* name = find_field(fields, "name");
  if (!name) fail_at(t.at, fmt::format("\"{}\" needs a \"name\" (it names the table's files)", item.path));
  t.name = file_name_at(*name, src);
  if (const Field* f = find_field(fields, "title")) t.title = scalar_text(*f, src, "a title");
  if (const Field* f = find_field(fields, "where")) t.where = param_match_at(*f, src);
  if (const Field* f = find_field(fields, "rows")) t.rows = names_at(*f, src);
  if (const Field* f = find_field(fields, "cols")) t.cols = names_at(*f, src);
  if (const Field* f = find_field(fields, "metrics")) t.metrics = names_at(*f, src);
  if (const Field* f = find_field(fields, "labels")) t.labels = param_match_at(*f, src);
  if (const Field* f = find_field(fields, "columns"))
    for (const Field& c : list_items(*f, src)) t.columns.push_back(read_column(c, src, has_model));
  if (const Field* f = find_field(fields, "baseline")) t.baseline = baseline_at(*f, src);
  if (const Field* f = find_field(fields, "spread")) t.spread = enum_at(*f, src, kSpreads, "a spread");
  if (const Field* f = find_field(fields, "digits")) t.digits = digits_at(*f, src);
  read_latex_options(fields, src, t.latex);
  if (!t.columns.empty() && (!t.cols.empty() || !t.metrics.empty()))
    fail_at(t.at, fmt::format("\"{}\" has \"columns\" and \"cols\"/\"metrics\"; a table is either one row per point with "
                              "explicit columns, or a pivot of rows x cols per metric",
                              item.path));
  if (!t.columns.empty() && !t.labels.empty())
    fail_at(t.at, fmt::format("\"{}\" has \"columns\" and \"labels\"; \"labels\" names the parameters of a pivot "
                              "(rows x cols); give each explicit column its own \"label\"",
                              item.path));
  for (const ReportColumn& c : t.columns)
    if (c.derived != DerivedMetric::none && t.baseline.empty())
      fail_at(c.at, fmt::format("a {} column needs the table's \"baseline\", e.g. baseline: {{nodes: 1, gpus_per_node: 1}}",
                                derived_name(c.derived)));
  return t;
}

/// `style:` and `figure_style:`: a gnuplot file's path, relative to the experiment's directory.
StyleFile style_at(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, "a gnuplot file");
  if (text.empty()) fail_expected(f, src, "a gnuplot file of set/unset lines, relative to the experiment's directory");
  return StyleFile{text, location(f, src), {}};
}

/// `width:` column, text, or inches ("4.5in").
void read_width(const Field& f, const Source& src, ReportFigure& g) {
  const std::string text = scalar_text(f, src, "a figure width");
  if (text.size() > 2 && text.compare(text.size() - 2, 2, "in") == 0) {
    char* end = nullptr;
    const std::string number = text.substr(0, text.size() - 2);
    const double inches = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !(inches >= 1 && inches <= 20))
      fail_expected(f, src, "a width in inches from 1 to 20, e.g. 4.5in");
    g.width = FigureWidth::inches;
    g.width_in = inches;
    return;
  }
  g.width = enum_at(f, src, kWidths, "a figure width, or inches such as 4.5in");
}

void read_figure_axis_options(const std::vector<Field>& fields, const Source& src, ReportFigure& g) {
  if (const Field* f = find_field(fields, "log")) {
    const std::vector<Field> axes = f->value.IsSequence() ? list_items(*f, src) : std::vector<Field>{*f};
    for (const Field& item : axes) {
      const std::string axis = scalar_text(item, src, "x or y");
      if (axis != "x" && axis != "y") fail_expected(item, src, "an axis to draw logarithmic: x or y");
      (axis == "x" ? g.log_x : g.log_y) = true;
    }
  }
  if (const Field* f = find_field(fields, "xlabel")) g.x_label = scalar_text(*f, src, "an axis label");
  if (const Field* f = find_field(fields, "ylabel")) g.y_label = scalar_text(*f, src, "an axis label");
  if (const Field* f = find_field(fields, "width")) read_width(*f, src, g);
  if (const Field* f = find_field(fields, "style")) g.styles.push_back(style_at(*f, src));
}

ReportFigure read_figure(const Field& item, const Source& src) {
  constexpr std::array<std::string_view, 16> kKeys{"name",   "title", "kind",     "x",   "y",      "predicted",
                                                   "series", "facets", "where", "baseline", "log", "xlabel",
                                                   "ylabel", "width", "style",    "labels"};
  const auto fields = map_fields(item, src);
  check_keys(fields, kKeys, src);
  ReportFigure g;
  g.at = location(item, src);
  const Field* name = find_field(fields, "name");
  const Field* kind = find_field(fields, "kind");
  const Field* x = find_field(fields, "x");
  const Field* y = find_field(fields, "y");
  if (!name || !kind || !x || !y)
    fail_at(g.at, fmt::format("\"{}\" needs \"name\", \"kind\", \"x\" and \"y\"", item.path));
  g.name = file_name_at(*name, src);
  g.kind = enum_at(*kind, src, kKinds, "a figure kind");
  g.x = name_at(*x, src);
  g.y = name_at(*y, src);
  if (const Field* f = find_field(fields, "title")) g.title = scalar_text(*f, src, "a title");
  if (const Field* f = find_field(fields, "predicted")) g.predicted = name_at(*f, src);
  if (const Field* f = find_field(fields, "series")) g.series = names_at(*f, src);
  if (const Field* f = find_field(fields, "facets")) g.facets = name_at(*f, src);
  if (const Field* f = find_field(fields, "where")) g.where = param_match_at(*f, src);
  if (const Field* f = find_field(fields, "baseline")) g.baseline = baseline_at(*f, src);
  if (const Field* f = find_field(fields, "labels")) g.labels = param_match_at(*f, src);
  read_figure_axis_options(fields, src, g);
  if (g.kind == FigureKind::model && g.predicted.empty())
    fail_at(g.at, fmt::format("\"{}\" is a model figure; it needs \"predicted\" (a parameter or metric)", item.path));
  if (g.kind == FigureKind::scaling && g.baseline.empty())
    fail_at(g.at, fmt::format("\"{}\" is a scaling figure; it needs \"baseline\", e.g. {{nodes: 1, gpus_per_node: 1}}",
                              item.path));
  return g;
}

/// Names of tables and figures: each names files, so each is used once in a report.
struct Names {
  std::vector<std::string> used;
  void add(const std::string& name, const SourceLocation& at) {
    if (std::find(used.begin(), used.end(), name) != used.end())
      fail_at(at, fmt::format("the name \"{}\" is used twice in \"report\"; tables and figures name files", name));
    used.push_back(name);
  }
};

/// `model`, `tables` and `figures`, of the report or of its join.
void read_body(const std::vector<Field>& fields, const Source& src, ReportModel& model, std::vector<ReportTable>& tables,
               std::vector<ReportFigure>& figures, Names& names) {
  if (const Field* m = find_field(fields, "model")) model = read_model(*m, src);
  if (const Field* t = find_field(fields, "tables"))
    for (const Field& item : list_items(*t, src)) {
      tables.push_back(read_table(item, src, model.declared));
      names.add(tables.back().name, tables.back().at);
    }
  if (const Field* g = find_field(fields, "figures"))
    for (const Field& item : list_items(*g, src)) {
      figures.push_back(read_figure(item, src));
      names.add(figures.back().name, figures.back().at);
    }
}

CarriedMetric read_carried(const Field& item, const Source& src) {
  constexpr std::array<std::string_view, 4> kKeys{"metric", "as", "scale", "unit"};
  const auto fields = map_fields(item, src);
  check_keys(fields, kKeys, src);
  CarriedMetric c;
  c.at = location(item, src);
  const Field* metric = find_field(fields, "metric");
  if (!metric) fail_at(c.at, fmt::format("\"{}\" needs \"metric\" (a metric of this campaign)", item.path));
  c.metric = name_at(*metric, src);
  c.as = c.metric;
  if (const Field* f = find_field(fields, "as")) c.as = name_at(*f, src);
  if (const Field* f = find_field(fields, "scale")) c.scale = scale_at(*f, src);
  if (const Field* f = find_field(fields, "unit")) c.unit = scalar_text(*f, src, "a unit");
  return c;
}

ReportJoin read_join(const Field& f, const Source& src, Names& names) {
  constexpr std::array<std::string_view, 6> kKeys{"experiment", "on", "metrics", "model", "tables", "figures"};
  const auto fields = map_fields(f, src);
  check_keys(fields, kKeys, src);
  ReportJoin j;
  j.at = location(f, src);
  const Field* experiment = find_field(fields, "experiment");
  const Field* on = find_field(fields, "on");
  const Field* metrics = find_field(fields, "metrics");
  if (!experiment || !on || !metrics)
    fail_at(j.at, fmt::format("\"{}\" needs \"experiment\" (whose campaign to join), \"on\" (the parameters that "
                              "match points) and \"metrics\" (what to carry there)",
                              f.path));
  j.experiment = file_name_at(*experiment, src);
  j.on = names_at(*on, src);
  for (const Field& item : list_items(*metrics, src)) j.metrics.push_back(read_carried(item, src));
  if (j.metrics.empty()) fail_expected(*metrics, src, "a list of {metric: ..., as: ...}");
  read_body(fields, src, j.model, j.tables, j.figures, names);
  if (j.tables.empty() && j.figures.empty())
    fail_at(j.at, fmt::format("\"{}\" needs \"tables\" or \"figures\" over the joined points", f.path));
  return j;
}

YAML::Node parse_root(const std::string& text, const Source& src) {
  check_text(text, src.file);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail_at(SourceLocation{src.file, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (!root.IsMap()) fail_at(SourceLocation{src.file, 1, 1}, "the file must be a map with a \"report\" section");
  check_document(root, src);
  return root;
}

}  // namespace

std::string_view derived_name(DerivedMetric d) { return name_of(d, kDerived); }
std::string_view figure_kind_name(FigureKind k) { return name_of(k, kKinds); }
std::span<const PredictedQuantity> predicted_quantities() { return kPredicted; }

ReportSpec read_report_spec(const Field& f, const Source& src) {
  constexpr std::array<std::string_view, 5> kKeys{"model", "tables", "figures", "join", "figure_style"};
  const auto fields = map_fields(f, src);
  check_keys(fields, kKeys, src);
  ReportSpec spec;
  spec.declared = true;
  if (const Field* s = find_field(fields, "figure_style")) spec.figure_styles.push_back(style_at(*s, src));
  Names names;
  read_body(fields, src, spec.model, spec.tables, spec.figures, names);
  if (const Field* j = find_field(fields, "join")) spec.join = read_join(*j, src, names);
  return spec;
}

void read_report(const Field& f, const Source& src, LoadState&) { read_report_spec(f, src); }

ReportSpec load_report_file(const std::string& path) {
  if (!std::filesystem::exists(path)) throw Error(ErrorKind::not_found, fmt::format("report file \"{}\" does not exist", path));
  const std::string text = read_spec_file(path, "report file");
  check_text(text, path);
  const Source src{path, text, true};
  const auto fields = map_fields(Field{"", YAML::Node(), parse_root(text, src)}, src);
  // An experiment (it has a name) lends its `report:` section; the rest of it is not read here.
  const bool experiment = find_field(fields, "name") != nullptr;
  if (!experiment) {
    constexpr std::array<std::string_view, 2> kTop{"format", "report"};
    check_keys(fields, kTop, src);
    if (const Field* v = find_field(fields, "format"))
      integer_in(*v, src, kReportFormatVersion, kReportFormatVersion, "1 (the only version of the report format)");
  }
  const Field* report = find_field(fields, "report");
  if (!report && experiment)
    fail_at(SourceLocation{path, 1, 1}, "the experiment has no \"report\" section to report with (--spec takes an "
                                        "experiment with one, or a report file)");
  if (!report) fail_at(SourceLocation{path, 1, 1}, "the file needs a \"report\" section with \"tables\" and/or \"figures\"");
  return read_report_spec(*report, src);
}

ReportSpec report_of_experiment(const std::string& text, const std::string& path) {
  const Source src{path, text, true};
  const auto fields = map_fields(Field{"", YAML::Node(), parse_root(text, src)}, src);
  const Field* report = find_field(fields, "report");
  return report ? read_report_spec(*report, src) : ReportSpec{};
}

std::vector<MetricThreshold> thresholds_of_experiment(const std::string& text, const std::string& path) {
  const Source src{path, text, true};
  const auto fields = map_fields(Field{"", YAML::Node(), parse_root(text, src)}, src);
  std::vector<MetricThreshold> out;
  if (const Field* f = find_field(fields, "thresholds"))
    for (const Field& entry : map_fields(*f, src)) out.push_back(read_threshold(entry, src));
  return out;
}

std::vector<Reference> references_of_experiment(const std::string& text, const std::string& path) {
  const Source src{path, text, true};
  const auto fields = map_fields(Field{"", YAML::Node(), parse_root(text, src)}, src);
  std::vector<Reference> out;
  if (const Field* f = find_field(fields, "references"))
    for (const Field& entry : list_items(*f, src)) out.push_back(read_reference(entry, src));
  return out;
}

}  // namespace sweep::spec
