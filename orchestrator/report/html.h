#pragma once
// The self-contained HTML report (docs/reports.md#html): provenance, run counts, the tables, the
// figures inline (SVG as data: URIs in <img>, so nothing in a figure can run), failed runs with their
// reasons, and the experiment as it was run. No scripts, no external resources; every user-supplied
// string is escaped. Pure.
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "report/table.h"

namespace sweep::report {

struct HtmlFigure {
  std::string name;
  std::string file;   // the base name of its files under figures/ (FigureText::file)
  std::string title;
  std::string svg;    // the SVG document; "" when it could not be drawn
  std::string error;  // why not, shown in its place
};

std::string html_report(const CampaignData& data, const std::vector<Table>& tables, const std::vector<HtmlFigure>& figures,
                        const std::string& sections = "", const std::string& lead = "");

}  // namespace sweep::report
