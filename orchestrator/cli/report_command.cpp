// sweep report <campaign> [--spec report.yaml] [--rows a,b] [--cols c] [--metrics m] [--no-figures]
//              [--join LABEL] [--history PREFIX [--history-rest REGEX] [--history-nights N] [--history-metrics m]]
//              [--stdout [--format markdown|csv]]
// Writes reports/<campaign>/: report.md, report.html, report.json, report.tex, report[.<table>].csv and
// figures/<name>.{gp,dat,svg,pdf} (report/write_report.h).
#include <fmt/core.h>

#include "cli/command.h"
#include "report/write_report.h"
#include "spec/load_report.h"
#include "store/store.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/sinks.h"

namespace sweep::cli {

void add_report(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    report::ReportRequest request;
    std::string spec_file;
    bool no_figures = false;
    Paths paths;
    bool to_stdout = false;
    std::string format = "markdown";
    report::HistoryRequest history;
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--rows", o->request.ad_hoc.rows, "Ad hoc pivot tables instead of the declared ones: the parameters of the rows (comma-separated)")->delimiter(',');
  sub.add_option("--cols", o->request.ad_hoc.cols, "Ad hoc pivot tables: the parameters of the columns, one table per metric")->delimiter(',');
  sub.add_option("--metrics", o->request.ad_hoc.metrics, "Ad hoc pivot tables: the metrics to show (default: all)")->delimiter(',');
  sub.add_option("--spec", o->spec_file, "A report file (tables and figures), or an experiment file whose report section is used, instead of the campaign's stored report section");
  sub.add_flag("--no-figures", o->no_figures, "Skip the figures (no gnuplot)");
  sub.add_option("--join", o->request.join, "The campaign the report's join reads (default: the latest of its experiment)");
  sub.add_option("--history", o->history.prefix,
                 "Add the history of the campaigns whose labels start with this (e.g. nightly-), up to this one");
  sub.add_option("--history-rest", o->history.rest, "A regex the rest of those labels must match (e.g. [0-9-]+)");
  sub.add_option("--history-nights", o->history.nights, "How many of the latest such campaigns")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--history-metrics", o->history.metrics, "Metrics of the history (default: all)")->delimiter(',');
  sub.add_flag("--stdout", o->to_stdout, "Also print report.md (with --format csv: the tables' CSV) to standard output; the \"wrote\" lines then go to standard error");
  sub.add_option("--format", o->format, "What --stdout prints: markdown or csv")
      ->check(CLI::IsMember({"markdown", "csv"}))
      ->capture_default_str();
  o->paths.add_to(sub, true);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      if (!o->spec_file.empty()) o->request.spec = spec::load_report_file(o->spec_file);
      o->request.figures = !o->no_figures;
      o->request.interconnects = o->paths.site().interconnects;
      if (!o->history.prefix.empty()) {
        o->request.history = o->history;
        o->request.history->until = o->label;
      }
      const auto out = report::write_report(db, o->label, o->request, o->paths.reports());
      if (o->to_stdout) {
        if (o->format == "markdown") fmt::print("{}", terminal_text(out.markdown, true));
        else
          for (const auto& csv : out.csv) fmt::print("{}", terminal_text(csv, true));
      }
      for (const auto& f : out.files) fmt::print(o->to_stdout ? stderr : stdout, "wrote {}\n", f);
      for (const auto& e : out.figure_errors) fmt::print(stderr, "sweep report: figure {}\n", e);
      for (const auto& n : out.notes) fmt::print(stderr, "sweep report: note: {}\n", terminal_text(n));
      return out.figure_errors.empty() ? 0 : static_cast<int>(ExitCode::io);
    };
  });
}

}  // namespace sweep::cli
