#pragma once
// `sweep report`: renders a campaign into <reports_dir>/<label>/: report.md, report.html, report.json,
// report.tex (every table) and report.<table>.tex (one table each, report/latex.h), one CSV per table,
// and figures/<name>.{gp,dat,svg,pdf} and figures/paper/<name>.{tex,pdf} per figure (gnuplot). Each
// file is written to a temporary name and renamed, so a reader never sees half a report. A figure script edited by hand since sweep wrote it is kept, the new one written beside it
// as <name>.gp.new, and a note says so (report/script_seal.h).
#include <optional>
#include <string>
#include <vector>

#include "model/interconnect.h"
#include "report/gate_verdict.h"
#include "report/history.h"
#include "report/table.h"
#include "spec/report_spec.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

struct ReportRequest {
  TableSpec ad_hoc;                      // --rows/--cols/--metrics; when any is given it replaces declared tables
  std::optional<spec::ReportSpec> spec;  // a report file; unset = the campaign experiment's `report:` section
  bool figures = true;                   // false: no gnuplot
  /// Set: the report also holds the history of the campaigns it selects (report/history.h): its
  /// tables after the campaign's, its trend figures after the campaign's figures.
  std::optional<HistoryRequest> history;
  /// The campaign the report's `join` reads (report/join.h); "" = the latest of its experiment.
  std::string join;
  /// Interconnects of the site file, for the model's links (report/predicted.h).
  std::vector<model::Interconnect> interconnects;
  /// Set: what a gate said of the campaign (report/gate_verdict.h); every format opens with it.
  std::optional<GateVerdict> verdict;
};

struct ReportOutput {
  std::string dir;
  std::vector<std::string> files;  // paths written
  std::string markdown;            // the Markdown report text
  std::vector<std::string> csv;    // the CSV texts, one per table
  std::vector<std::string> figure_errors;  // "name: why" for figures gnuplot could not draw
  std::vector<std::string> notes;          // what was left out and why (a join with no campaign to join)
  std::vector<HistoryChangePoint> change_points;  // of the history, when the request asked for one
};

/// Error(invalid_experiment) at file:line:column for a declared table or figure that names what the
/// campaign lacks, before anything is written.
ReportOutput write_report(const store::Store& db, const std::string& label, const ReportRequest& request,
                          const std::string& reports_dir);

}  // namespace sweep::report
