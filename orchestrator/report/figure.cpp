#include "report/figure.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "report/baseline.h"
#include "report/declared_tables.h"
#include "report/derived.h"
#include "report/figure_axes.h"
#include "report/figure_paper.h"
#include "report/points_view.h"
#include "report/script_seal.h"
#include "util/error.h"
#include "util/sinks.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

struct Point3 {
  double mean = NAN, low = NAN, high = NAN, predicted = NAN;
};

struct Series {
  std::string label;
  std::map<std::size_t, Point3> by_x;  // x ordinal -> value
};

struct Panel {
  std::string label;
  std::vector<Series> series;
};

struct Layout {
  std::vector<std::string> x_values;  // sorted, with their positions
  std::vector<double> x_positions;
  bool numeric_x = true;
  std::vector<Panel> panels;
};

std::string value_of(const PointResult& r, const std::string& name) {
  const auto* p = find_param(*r.point, name);
  return p ? p->value : "";
}

/// The parameter's name as figure `g` shows it: its `labels` entry, else the name.
const std::string& shown_name(const spec::ReportFigure& g, const std::string& name) {
  for (const auto& [param, label] : g.labels)
    if (param == name) return label;
  return name;
}

std::string series_label(const PointResult& r, const spec::ReportFigure& g) {
  if (g.series.empty()) return "";
  if (g.series.size() == 1) {
    // A bare number says little in a key ("2"); a word does ("nccl").
    const auto* p = find_param(*r.point, g.series.front());
    return p && param_number(*p) ? shown_name(g, g.series.front()) + "=" + p->value : value_of(r, g.series.front());
  }
  std::vector<std::string> parts;
  for (const auto& s : g.series) parts.push_back(shown_name(g, s) + "=" + value_of(r, s));
  return join(parts, ", ");
}

/// One plotted value of a point: its x (text, and its number when it is one) and y.
struct Entry {
  std::string x;
  std::optional<double> number;
  Point3 value;
};

/// Distinct x values, numerically sorted when every one is a number, else in first-appearance order.
void lay_out_x(const std::vector<std::vector<Entry>>& entries, Layout& layout) {
  std::vector<double> numbers;  // per x value, when numeric_x
  for (const auto& point : entries)
    for (const auto& e : point) {
      layout.numeric_x = layout.numeric_x && e.number;
      if (std::find(layout.x_values.begin(), layout.x_values.end(), e.x) != layout.x_values.end()) continue;
      layout.x_values.push_back(e.x);
      numbers.push_back(e.number.value_or(0));
    }
  if (!layout.numeric_x) {
    for (std::size_t i = 0; i < layout.x_values.size(); ++i) layout.x_positions.push_back(static_cast<double>(i));
    return;
  }
  std::vector<std::size_t> order(numbers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return numbers[a] < numbers[b]; });
  std::vector<std::string> sorted;
  for (const std::size_t i : order) sorted.push_back(layout.x_values[i]), layout.x_positions.push_back(numbers[i]);
  layout.x_values = std::move(sorted);
}

template <typename T>
T& slot_named(std::vector<T>& items, const std::string& label) {
  for (auto& it : items)
    if (it.label == label) return it;
  items.push_back(T{label, {}});
  return items.back();
}

Point3 value_at(const std::vector<PointResult>& results, std::size_t i, const PointResult* base,
               const spec::ReportFigure& g) {
  Point3 v;
  std::optional<MetricStats> stats;
  if (g.kind == spec::FigureKind::scaling) {
    if (base) stats = derive(spec::DerivedMetric::scaling, g.y, results[i], *base, g.baseline);
  } else if (const auto it = results[i].metrics.find(g.y); it != results[i].metrics.end()) {
    stats = it->second;
  }
  if (stats && stats->summary.n > 0) v.mean = stats->summary.mean, v.low = stats->summary.ci_low, v.high = stats->summary.ci_high;
  if (g.kind == spec::FigureKind::model) v.predicted = number_at(results[i], g.predicted).value_or(NAN);
  return v;
}

void check_names(const PointsView& points, const spec::ReportFigure& g) {
  const std::vector<PointResult>& results = points.results;
  const auto& params = points.params;
  const auto& metrics = points.metrics;
  const std::string context = fmt::format("figure \"{}\": ", g.name);
  const auto need = [&](const std::vector<std::string>& names, const std::vector<std::string>& known, const char* what) {
    require_known_at(g.at, names, known, what, context);
  };
  std::vector<std::string> both = params;
  both.insert(both.end(), metrics.begin(), metrics.end());
  need({g.x}, both, "x parameter or metric");
  if (g.kind == spec::FigureKind::scaling && !find_param(*results.front().point, g.x))
    fail_at(g.at, fmt::format("figure \"{}\": a scaling figure needs a parameter as x, not metric \"{}\"", g.name, g.x));
  need({g.y}, metrics, "y metric");
  need(g.series, params, "series parameter");
  if (!g.facets.empty()) need({g.facets}, params, "facets parameter");
  std::vector<std::string> labelled, shown = g.series;  // a label names a parameter the figure shows
  for (const auto& [param, label] : g.labels) labelled.push_back(param);
  shown.push_back(g.x);
  if (!g.facets.empty()) shown.push_back(g.facets);
  need(labelled, shown, "parameter in \"labels\" (x, series or facets)");
  if (!g.predicted.empty()) need({g.predicted}, both, "predicted parameter or metric");
}

std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.10g}", v) : "NaN"; }

const stats::Summary* at_index(const MetricStats& m, std::int64_t index) {
  if (m.by_index.empty()) return index == 0 ? &m.summary : nullptr;
  for (const auto& [i, s] : m.by_index)
    if (i == index) return &s;
  return nullptr;
}

/// A metric as x: one entry per index of y (e.g. per message size), x being that index's mean of the
/// x metric. Points lacking either metric give none.
std::vector<Entry> indexed_entries(const PointResult& r, const spec::ReportFigure& g) {
  const auto y = r.metrics.find(g.y), x = r.metrics.find(g.x);
  if (y == r.metrics.end() || x == r.metrics.end()) return {};
  const auto predicted = r.metrics.find(g.predicted);
  std::vector<Entry> out;
  const auto add = [&](std::int64_t index, const stats::Summary& s) {
    const stats::Summary* xs = at_index(x->second, index);
    if (!xs || s.n == 0) return;
    const std::string x_text = num(xs->mean);  // the number as the data file shows it, and is placed by
    Entry e{x_text, value_from_text(x_text, ValueType::real).as_real(), {s.mean, s.ci_low, s.ci_high, NAN}};
    if (predicted != r.metrics.end())
      if (const stats::Summary* ps = at_index(predicted->second, index)) e.value.predicted = ps->mean;
    out.push_back(e);
  };
  if (y->second.by_index.empty()) add(0, y->second.summary);
  for (const auto& [index, s] : y->second.by_index) add(index, s);
  return out;
}

std::vector<Entry> entries_of(const std::vector<PointResult>& results, std::size_t i, const PointResult* base,
                              const spec::ReportFigure& g) {
  const auto* x = find_param(*results[i].point, g.x);
  if (!x) return indexed_entries(results[i], g);
  return {Entry{x->value, param_number(*x), value_at(results, i, base, g)}};
}

/// The figure's points `results` (those it selects from `all`) laid out; baselines come from `all`.
Layout lay_out(const std::vector<PointResult>& results, const spec::ReportFigure& g, const PointsView& all) {
  Layout layout;
  const auto bases = g.kind != spec::FigureKind::scaling
                         ? std::vector<const PointResult*>(results.size())
                         : at_location(where_of(g.baseline, g.at), [&] { return baselines_of(results, all, g.baseline); });
  std::vector<std::vector<Entry>> entries;
  for (std::size_t i = 0; i < results.size(); ++i) entries.push_back(entries_of(results, i, bases[i], g));
  lay_out_x(entries, layout);
  for (std::size_t i = 0; i < results.size(); ++i) {
    Panel& panel = slot_named(layout.panels, g.facets.empty() ? "" : shown_name(g, g.facets) + "=" + value_of(results[i], g.facets));
    Series& series = slot_named(panel.series, series_label(results[i], g));
    for (const Entry& e : entries[i]) {
      const auto xi = static_cast<std::size_t>(std::find(layout.x_values.begin(), layout.x_values.end(), e.x) - layout.x_values.begin());
      if (series.by_x.count(xi))
        fail_at(g.at, fmt::format("figure \"{}\": several points share {}={}{}{}; name the parameters that tell them apart "
                                  "in \"series\" or \"facets\", or select one with \"where\"",
                                  g.name, g.x, e.x, series.label.empty() ? "" : " in series ", series.label));
      series.by_x[xi] = e.value;
    }
  }
  return layout;
}

/// A label in the data file: double-quoted, with its quotes as ' and control characters as spaces.
std::string data_label(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '"' ? '\'' : static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  return "\"" + out + "\"";
}

/// Per panel and series one block: position, mean, low, high, predicted, label. Bars: per panel one
/// block with a row per x: label, then mean/low/high per series.
std::string data_text(const Layout& layout, const spec::ReportFigure& g, std::size_t& count) {
  std::string out = fmt::format("# sweep figure data (format 1): {}\n", gnuplot_comment(g.name));
  for (const auto& panel : layout.panels) {
    if (g.kind == spec::FigureKind::bars) {
      out += fmt::format("# panel {}\n", gnuplot_comment(panel.label));
      for (std::size_t xi = 0; xi < layout.x_values.size(); ++xi) {
        out += data_label(layout.x_values[xi]);
        for (const auto& s : panel.series) {
          const auto it = s.by_x.find(xi);
          const Point3 v = it == s.by_x.end() ? Point3{} : it->second;
          count += std::isfinite(v.mean);
          out += fmt::format("\t{}\t{}\t{}", num(v.mean), num(v.low), num(v.high));
        }
        out += "\n";
      }
      out += "\n\n";
      continue;
    }
    for (const auto& s : panel.series) {
      out += fmt::format("# panel {} series {}\n", gnuplot_comment(panel.label), gnuplot_comment(s.label));
      for (const auto& [xi, v] : s.by_x) {
        count += std::isfinite(v.mean);
        out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\n", num(layout.x_positions[xi]), num(v.mean), num(v.low), num(v.high),
                           num(v.predicted), data_label(layout.x_values[xi]));
      }
      out += "\n\n";
    }
  }
  return out;
}

/// One drawing of the figure: its terminal, how its texts are quoted, and where it reads the data.
enum class Output { svg, pdf, paper };
struct Target {
  Output output;
  std::string data;   // the .dat file as the plot lines name it (the paper version runs in figures/paper)
  std::string title;  // "" = none (the paper version's default: the caption is LaTeX's)
  std::string text(const std::string& s) const { return output == Output::paper ? paper_text(s) : gnuplot_string(s); }
  /// A tic's label: gnuplot reads the labels of `set xtics ('label' position, ...)` as formats of the
  /// tic's value, so each % of the quoted text is doubled ("10%" would be a format; "%.999999999f" one
  /// that takes gigabytes).
  std::string tic(const std::string& s) const {
    std::string out;
    for (const char c : text(s)) out += c == '%' ? std::string("%%") : std::string(1, c);
    return out;
  }
};

std::string axis_label(const std::string& given, const std::string& fallback) { return given.empty() ? fallback : given; }

std::string series_title(const Series& s, const char* suffix) {
  return s.label.empty() ? std::string(suffix[0] ? suffix + 1 : "") : s.label + suffix;
}

/// The plot command of one panel, and in `entries` how many of its lines have a title (the key's size).
std::string plot_line(const Panel& panel, std::size_t& block, const spec::ReportFigure& g, const Layout& layout,
                      const Target& t, std::size_t& entries) {
  const std::string file = gnuplot_string(t.data);
  std::vector<std::string> parts;
  const auto titled = [&entries, &t](const std::string& title) {
    entries += !title.empty();
    return t.text(title);
  };
  if (g.kind == spec::FigureKind::bars) {
    for (std::size_t s = 0; s < panel.series.size(); ++s)
      parts.push_back(fmt::format("{} index {} using {}:{}:{} title {}", s ? "''" : file, block, 2 + 3 * s, 3 + 3 * s,
                                  4 + 3 * s, titled(series_title(panel.series[s], ""))));
    ++block;
    return "plot " + join(parts, ", \\\n     ");
  }
  const bool log = g.log_x && layout.numeric_x;
  for (std::size_t i = 0; i < panel.series.size(); ++i) {
    const std::string x = dodged_x(i, panel.series.size(), layout.x_positions, log);
    parts.push_back(fmt::format("{} index {} using {}:2:3:4 with yerrorlines lw 2 title {}", file, block, x,
                                titled(series_title(panel.series[i], ""))));
    if (g.kind == spec::FigureKind::model)
      parts.push_back(fmt::format("{} index {} using {}:5 with linespoints dt 2 lw 2 title {}", file, block, x,
                                  titled(series_title(panel.series[i], " (predicted)"))));
    ++block;
  }
  if (g.kind == spec::FigureKind::scaling) parts.push_back("1 with lines dt 3 lc rgb 'black' title " + titled("ideal"));
  return "plot " + join(parts, ", \\\n     ");
}

/// The x axis: a tic per value where values are not numbers (bars, or words), else the range that hugs
/// the data and, on a log axis over few values, a tic at each (report/figure_axes.h).
std::string x_settings(const Layout& layout, const spec::ReportFigure& g, const Target& t, std::size_t series) {
  const bool ordinal = g.kind == spec::FigureKind::bars || !layout.numeric_x;
  std::vector<std::string> tics;
  if (ordinal) {
    for (std::size_t i = 0; i < layout.x_values.size(); ++i) tics.push_back(fmt::format("{} {}", t.tic(layout.x_values[i]), i));
    if (g.kind == spec::FigureKind::bars) return fmt::format("set xtics ({})\n", join(tics, ", "));
    return fmt::format("set xtics ({})\nset offsets 0.3, 0.3, 0, 0\n", join(tics, ", "));
  }
  const XAxis axis = x_axis(layout.x_positions, layout.x_values, g.log_x, series);
  for (const AxisTic& tic : axis.tics) tics.push_back(fmt::format("{} {}", t.tic(tic.label), num(tic.at)));
  if (!(axis.low < axis.high)) return "set autoscale x\nset xtics autofreq\n";  // a log axis over values <= 0: gnuplot says so
  return fmt::format("set xrange [{}:{}]\nset offsets 0, 0, 0, 0\n{}", num(axis.low), num(axis.high),
                     tics.empty() ? "set xtics autofreq\n" : fmt::format("set xtics ({})\n", join(tics, ", ")));
}

std::string panel_settings(const Layout& layout, const spec::ReportFigure& g, const std::string& y_unit, const Target& t) {
  std::string out;
  const std::string y_default = g.kind == spec::FigureKind::scaling ? "scaling factor of " + g.y
                                                                     : y_unit.empty() ? g.y : g.y + " (" + y_unit + ")";
  out += fmt::format("set xlabel {}\nset ylabel {}\n", t.text(axis_label(g.x_label, shown_name(g, g.x))), t.text(axis_label(g.y_label, y_default)));
  out += "set grid ytics\nset bars small\n";
  out += g.log_x && g.kind != spec::FigureKind::bars && layout.numeric_x ? "set logscale x\n" : "unset logscale x\n";
  out += g.log_y ? "set logscale y\n" : "unset logscale y\n";
  std::size_t series = 0;
  for (const auto& p : layout.panels) series = std::max(series, p.series.size());
  out += x_settings(layout, g, t, series);
  if (g.kind == spec::FigureKind::bars) {
    out += "set style data histograms\nset style histogram errorbars gap 1 lw 1\nset style fill solid 0.8 border -1\n"
           "set boxwidth 0.9\n";
    return out + (g.log_y ? "" : "set yrange [0:*]\n");
  }
  return out + (g.kind == spec::FigureKind::scaling ? "set yrange [0:*]\n" : "unset yrange\n");
}

/// Panels are laid out up to 3 per row.
struct Grid {
  std::size_t rows, cols;
};
Grid grid_of(const Layout& layout) {
  const std::size_t n = layout.panels.size(), cols = std::min<std::size_t>(n, 3);
  return {(n + cols - 1) / cols, cols};
}

/// Tagged arrows and labels, drawn in every panel.
std::string marker_text(const Layout& layout, const std::vector<FigureMarker>& markers, const Target& t) {
  std::string out;
  int tag = 0;
  for (const auto& m : markers) {
    const auto it = std::find(layout.x_values.begin(), layout.x_values.end(), m.x);
    if (it == layout.x_values.end()) continue;
    const std::string x = num(layout.x_positions[static_cast<std::size_t>(it - layout.x_values.begin())]);
    ++tag;
    out += fmt::format("set arrow {} from {}, graph 0 to {}, graph 1 nohead dt 2 lw 1.5 lc rgb '#b2182b'\n", tag, x, x);
    out += fmt::format("set label {} {} at {}, graph 0.04 left offset 0.5, 0 textcolor rgb '#b2182b'\n", tag, t.text(m.label), x);
  }
  return out;
}

/// A style file's checked lines (report/figure_style.h), never a `load` of its path: gnuplot would read
/// the file again, after the check. resolve_style left the text as lines ended by "\n", CRs dropped.
std::string style_text(const spec::StyleFile& style) {
  return fmt::format("# style file {}\n{}# end of the style file\n", gnuplot_comment(style.path), style.text);
}

/// The generated settings, then the style files (`sweep_output` says which drawing this is), then the
/// plots, panel by panel.
std::string body_text(const Layout& layout, const spec::ReportFigure& g, const std::string& unit,
                      const std::vector<FigureMarker>& markers, const Target& t) {
  static constexpr const char* kOutputNames[] = {"svg", "pdf", "paper"};
  const std::size_t n = layout.panels.size();
  const auto [rows, cols] = grid_of(layout);
  std::string out = panel_settings(layout, g, unit, t) + marker_text(layout, markers, t);
  out += fmt::format("sweep_output = '{}'\n", kOutputNames[static_cast<int>(t.output)]);
  for (const auto& s : g.styles) out += style_text(s);
  if (n > 1) out += fmt::format("set multiplot layout {},{}{}\n", rows, cols, t.title.empty() ? "" : " title " + t.text(t.title));
  std::size_t block = 0;
  for (const auto& panel : layout.panels) {
    const std::string title = n > 1 ? panel.label : t.title;
    out += title.empty() ? "unset title\n" : fmt::format("set title {}\n", t.text(title));
    std::size_t entries = 0;
    const std::string plot = plot_line(panel, block, g, layout, t, entries);
    out += key_setting(entries) + plot + "\n";
  }
  if (n > 1) out += "unset multiplot\n";
  return out;
}

std::string unit_of(const std::vector<PointResult>& results, const std::string& metric) {
  for (const auto& r : results)
    if (const auto it = r.metrics.find(metric); it != r.metrics.end() && !it->second.unit.empty()) return it->second.unit;
  return "";
}

/// The script: SVG and PDF in figures/, then the paper version in figures/paper (docs/reports.md#figures).
std::string script_text(const Layout& layout, const spec::ReportFigure& g, const FigureText& f, const std::string& campaign,
                        const std::string& unit, const std::vector<FigureMarker>& markers) {
  const auto [rows, panels] = grid_of(layout);
  const std::string dat = f.file + ".dat";
  std::string out = fmt::format("# sweep figure {} of campaign {} (format 2): `gnuplot {}.gp` writes {}.svg, {}.pdf and "
                                "{}/{}.tex with {}/{}.pdf (sweep report names that .tex {}/{}.tex)\n",
                                gnuplot_comment(g.name), gnuplot_comment(campaign), f.file, f.file, f.file, kPaperDir,
                                f.graphic, kPaperDir, f.graphic, kPaperDir, f.file);
  out += "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n";
  out += fmt::format("set terminal svg size {},{} font 'Helvetica,13' noenhanced background rgb 'white'\n", 640 * panels, 420 * rows);
  out += fmt::format("set output {}\n{}unset output\n", gnuplot_string(f.file + ".svg"),
                     body_text(layout, g, unit, markers, {Output::svg, dat, f.title}));
  out += fmt::format("set terminal pdfcairo size {}in,{}in font 'Helvetica,10' noenhanced\n", 5 * panels, 3.3 * static_cast<double>(rows));
  out += fmt::format("set output {}\n{}unset output\n", gnuplot_string(f.file + ".pdf"),
                     body_text(layout, g, unit, markers, {Output::pdf, dat, f.title}));
  out += fmt::format("cd {}\n", gnuplot_string(std::string(kPaperDir)));
  out += paper_terminal(paper_size(g.width, rows, g.width_in), f.graphic);
  out += body_text(layout, g, unit, markers, {Output::paper, "../" + dat, g.paper_title ? g.title : ""}) + "unset output\n";
  return sealed(out);
}

}  // namespace

FigureText build_figure(const PointsView& all, const spec::ReportFigure& g, const std::string& campaign,
                        const std::vector<FigureMarker>& markers) {
  const std::vector<PointResult> results = select_points(all, g.where, g.at);
  FigureText f;
  f.name = g.name;
  f.file = safe_file_name(g.name);
  f.graphic = paper_graphic_name(f.file, campaign);
  if (results.empty()) return f;
  check_names(PointsView(results), g);
  const Layout layout = lay_out(results, g, all);
  const std::string what = g.kind == spec::FigureKind::scaling ? "scaling factor of " + g.y : g.y;
  f.title = !g.title.empty() ? g.title : fmt::format("{}: {} vs {}", campaign, what, g.x);
  f.data = data_text(layout, g, f.points);
  f.script = script_text(layout, g, f, campaign, unit_of(results, g.y), markers);
  return f;
}

}  // namespace sweep::report
