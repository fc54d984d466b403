#pragma once
// Figures of a report as gnuplot scripts and their data (docs/reports.md#figures). Pure: this builds the
// text of <file>.gp and <file>.dat; write_report runs gnuplot on them. The script (sealed: script_seal.h)
// draws the figure three times: <file>.svg (for the HTML report), <file>.pdf, and the paper version
// paper/<file>.tex with paper/<file>.pdf (cairolatex: figure_paper.h); it needs gnuplot's svg, pdfcairo
// and cairolatex terminals. The x axis, the dodge and the key come from figure_axes.h; each drawing
// loads the figure's style files (figure_style.h) after its settings.
#include <string>
#include <vector>

#include "report/points_view.h"
#include "spec/report_spec.h"

namespace sweep::report {

struct FigureText {
  std::string name;    // as declared or made from a metric name: any text
  std::string file;    // safe_file_name(name) (util/sinks.h): the base name of the files below
  std::string title;   // of the SVG and PDF: the declared title, else "<campaign>: <y> vs <x>"
  std::string script;  // <file>.gp: reads <file>.dat, writes <file>.svg, <file>.pdf and paper/<graphic>.{tex,pdf}
  // The paper version's base name in paper/: <file>-<10 hex digits of the campaign label's SHA-256>
  // (paper_graphic_name), so two campaigns' figures of one name never share a graphic in a paper whose
  // \graphicspath holds both. sweep report renames paper/<graphic>.tex to paper/<file>.tex.
  std::string graphic;
  std::string data;    // <file>.dat
  std::size_t points = 0;  // values plotted; 0 = nothing to plot
};

/// A dashed vertical line at one value of the x axis, with a label beside it (a trend figure's change
/// points). A marker at a value the figure does not have is left out.
struct FigureMarker {
  std::string x;      // the x value's text, as in the data ("2026-01-20")
  std::string label;  // "-9.8% dp"
};

/// Builds figure `spec` over `results`, with `markers`. Names the campaign lacks are
/// Error(invalid_experiment) at the figure's file:line:column.
FigureText build_figure(const PointsView& points, const spec::ReportFigure& spec,
                        const std::string& campaign, const std::vector<FigureMarker>& markers = {});

}  // namespace sweep::report
