#pragma once
// Drawing a figure (docs/reports.md#figures): gnuplot runs on the figure's script in a private
// directory made new under figures/ (mkdtemp, mode 0700), so it writes nothing but there; each drawing
// is then renamed into place. A symlink planted at figures/<file>.svg, .pdf or in figures/paper/ is
// replaced, never followed, and figures/paper itself must be a real directory sweep may trust.
#include <string>
#include <vector>

#include "report/figure.h"

namespace sweep::report {

struct Drawing {
  std::string svg;                 // the SVG's text (for the HTML report); "" when not drawn
  std::string error;               // why it was not drawn
  std::string warnings;            // what gnuplot printed while drawing it ("difficulty fitting plot titles into key")
  std::vector<std::string> files;  // the drawings in place: figures/<file>.svg, .pdf, paper/<file>.tex, paper/<graphic>.pdf
};

/// Draws `f` (its script and data as built) into `figures_dir`, which exists with its paper/ directory.
Drawing draw_figure(const std::string& figures_dir, const FigureText& f);

}  // namespace sweep::report
