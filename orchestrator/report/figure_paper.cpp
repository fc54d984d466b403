#include "report/figure_paper.h"

#include <fmt/core.h>

#include "util/sinks.h"

namespace sweep::report {

PaperSize paper_size(spec::FigureWidth width, std::size_t rows) {
  const double r = static_cast<double>(rows == 0 ? 1 : rows);
  return width == spec::FigureWidth::text ? PaperSize{6.2, 2.3 * r} : PaperSize{3.0, 0.62 * 3.0 * r};
}

std::string paper_terminal(const PaperSize& size, std::string_view file) {
  return fmt::format("set terminal cairolatex pdf input blacktext size {:.3g}in,{:.3g}in font ',10' linewidth 1\n"
                     "set output {}\n",
                     size.width_in, size.height_in, gnuplot_string(std::string(file) + ".tex"));
}

std::string paper_text(std::string_view text) { return gnuplot_string(latex_text(text)); }

}  // namespace sweep::report
