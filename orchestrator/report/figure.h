#pragma once
// Figures of a report as gnuplot scripts and their data (docs/reports.md#figures). Pure: this builds the
// text of <file>.gp and <file>.dat; write_report runs gnuplot on them. The script draws the figure twice,
// as <file>.svg (for the HTML report) and <file>.pdf (for papers), and needs only gnuplot's svg and
// pdfcairo terminals.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "spec/report_spec.h"

namespace sweep::report {

struct FigureText {
  std::string name;    // as declared or made from a metric name: any text
  std::string file;    // safe_file_name(name) (util/sinks.h): the base name of the files below
  std::string title;
  std::string script;  // <file>.gp: reads <file>.dat, writes <file>.svg and <file>.pdf in its directory
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
FigureText build_figure(const std::vector<PointResult>& results, const spec::ReportFigure& spec,
                        const std::string& campaign, const std::vector<FigureMarker>& markers = {});

}  // namespace sweep::report
