#include "report/figure_paper.h"

#include <fmt/core.h>

#include "util/sha256.h"
#include "util/sinks.h"

namespace sweep::report {

PaperSize paper_size(spec::FigureWidth width, std::size_t rows, double inches) {
  const double r = static_cast<double>(rows == 0 ? 1 : rows);
  if (width == spec::FigureWidth::text) return {6.2, 2.3 * r};
  const double w = width == spec::FigureWidth::inches ? inches : 3.0;
  return {w, 0.62 * w * r};
}

std::string paper_terminal(const PaperSize& size, std::string_view file) {
  return fmt::format("set terminal cairolatex pdf input blacktext size {:.3g}in,{:.3g}in font ',10' linewidth 1\n"
                     "set output {}\n",
                     size.width_in, size.height_in, gnuplot_string(std::string(file) + ".tex"));
}

std::string paper_graphic_name(std::string_view file, std::string_view campaign) {
  return fmt::format("{}-{}", file, sha256_hex(campaign).substr(0, 10));
}

std::string paper_text(std::string_view text) { return gnuplot_string(latex_text(text)); }

}  // namespace sweep::report
