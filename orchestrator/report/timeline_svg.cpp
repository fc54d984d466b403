#include "report/timeline_svg.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "util/escape.h"

namespace sweep::report {
namespace {

constexpr double kWidth = 960, kLeft = 70, kRight = 20, kPlot = 150, kTitle = 26, kAxis = 22, kKeyRow = 16;
constexpr std::size_t kKeyColumns = 3;
constexpr std::array<const char*, 10> kColours{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                              "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

struct Scale {
  double t_max, y_max, top;
  double x(double t) const { return kLeft + (kWidth - kLeft - kRight) * t / t_max; }
  double y(double v) const { return top + kPlot - kPlot * v / y_max; }
};

std::string polyline(const Series& s, const Scale& sc, const char* colour) {
  std::string pts;
  for (const auto& p : s.points) pts += fmt::format("{:.1f},{:.1f} ", sc.x(p.t), sc.y(p.v));
  if (s.points.size() == 1) return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2\" fill=\"{}\"/>\n", sc.x(s.points[0].t), sc.y(s.points[0].v), colour);
  return fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\" points=\"{}\"/>\n", colour, pts);
}

/// A round tick step (1, 2 or 5 times a power of ten) giving at most about `ticks` steps up to `max` > 0.
double nice_step(double max, double ticks) {
  const double raw = max / ticks, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

std::string axes(const Scale& sc, const char* title) {
  std::string out = fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>\n", kLeft, sc.top - 8, xml_text(title));
  out += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n", kLeft, sc.top,
                     kWidth - kLeft - kRight, kPlot);
  const double y_step = nice_step(sc.y_max, 4), t_step = nice_step(sc.t_max, 6);
  for (int i = 0; i * y_step <= sc.y_max * (1 + 1e-9); ++i)
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", kLeft - 4, sc.y(i * y_step) + 4, i * y_step);
  for (int i = 0; i * t_step <= sc.t_max * (1 + 1e-9); ++i)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g} s</text>\n", sc.x(i * t_step), sc.top + kPlot + 14,
                       i * t_step);
  return out;
}

std::string marks(const Timeline& tl, const Scale& sc) {
  std::string out = fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"#2a2\" stroke-width=\"2\"/>"
                                "<text x=\"{3:.1f}\" y=\"{4:.1f}\" fill=\"#2a2\">start</text>\n",
                                sc.x(0), sc.top, sc.top + kPlot, sc.x(0) + 3, sc.top + 12);
  for (std::size_t i = 0; i < tl.ends.size(); ++i) {
    const auto& e = tl.ends[i];
    const char* colour = e.cut_short ? "#c00" : "#555";
    out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" stroke-dasharray=\"4 3\"/>"
                       "<text x=\"{4:.1f}\" y=\"{5:.1f}\" fill=\"{3}\" text-anchor=\"end\">{6} {7}</text>\n",
                       sc.x(e.t), sc.top, sc.top + kPlot, colour, sc.x(e.t) - 3, sc.top + 12 + 12 * static_cast<double>(i % 8),
                       xml_text(e.node), e.cut_short ? "cut short" : "end");
  }
  return out;
}

std::string key(const std::vector<const Series*>& series, double top) {
  std::string out;
  const double column = (kWidth - kLeft - kRight) / kKeyColumns;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double x = kLeft + column * static_cast<double>(i % kKeyColumns), y = top + kKeyRow * static_cast<double>(i / kKeyColumns);
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"14\" height=\"3\" fill=\"{}\"/><text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                       x, y - 4, kColours[i % kColours.size()], x + 18, y, xml_text(series[i]->label));
  }
  return out;
}

}  // namespace

std::string timeline_svg(const Timeline& tl, const std::string& title) {
  std::string body;
  double top = kTitle + 10;
  const double t_max = tl.t_max > 0 ? tl.t_max : 1;
  for (std::size_t p = 0; p < kPanels; ++p) {
    std::vector<const Series*> in;
    double y_max = 0;
    for (const auto& s : tl.series)
      if (static_cast<std::size_t>(s.panel) == p) {
        in.push_back(&s);
        for (const auto& pt : s.points) y_max = std::max(y_max, pt.v);
      }
    if (in.empty()) continue;
    top += kTitle;
    // The y axis ends at the first round tick at or above the largest value.
    const double y_top = y_max > 0 ? std::ceil(y_max * 1.02 / nice_step(y_max, 4)) * nice_step(y_max, 4) : 1;
    const Scale sc{t_max, y_top, top};
    body += axes(sc, panel_title(static_cast<Panel>(p)));
    for (std::size_t i = 0; i < in.size(); ++i) body += polyline(*in[i], sc, kColours[i % kColours.size()]);
    body += marks(tl, sc);
    const double key_top = top + kPlot + kAxis + 12;
    body += key(in, key_top);
    top = key_top + kKeyRow * static_cast<double>((in.size() + kKeyColumns - 1) / kKeyColumns);
  }
  if (body.empty()) body = fmt::format("<text x=\"{}\" y=\"{}\">no samples</text>\n", kLeft, top + 20), top += 30;
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" viewBox=\"0 0 {0} {1:.0f}\" "
                     "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                     "<text x=\"{2}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{3}</text>\n{4}</svg>\n",
                     kWidth, top + 10, kLeft, xml_text(title), body);
}

}  // namespace sweep::report
