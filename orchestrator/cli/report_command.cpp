// sweep report <campaign> [--rows a,b] [--cols c] [--metrics m] [--stdout [--format markdown|csv]]
#include <fmt/core.h>

#include "cli/command.h"
#include "report/write_report.h"
#include "store/store.h"
#include "util/error.h"

namespace sweep::cli {

void add_report(CLI::App& sub, Action& action) {
  struct Options {
    std::string label;
    report::TableSpec spec;
    Paths paths;
    bool to_stdout = false;
    std::string format = "markdown";
  };
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "Campaign label")->required();
  sub.add_option("--rows", o->spec.rows, "Parameters forming the table rows (comma-separated)")->delimiter(',');
  sub.add_option("--cols", o->spec.cols, "Parameters forming the table columns: one table per metric")->delimiter(',');
  sub.add_option("--metrics", o->spec.metrics, "Metrics to show (default: all)")->delimiter(',');
  sub.add_flag("--stdout", o->to_stdout, "Also print the report to standard output");
  sub.add_option("--format", o->format, "What --stdout prints: markdown or csv")
      ->check(CLI::IsMember({"markdown", "csv"}))
      ->capture_default_str();
  o->paths.add_to(sub, true);
  sub.callback([o, &action] {
    action = [o] {
      const store::Store db(o->paths.db());
      const auto out = report::write_report(db, o->label, o->spec, o->paths.reports_dir);
      if (o->to_stdout) {
        if (o->format == "markdown") fmt::print("{}", out.markdown);
        else
          for (const auto& csv : out.csv) fmt::print("{}", csv);
      }
      for (const auto& f : out.files) fmt::print(o->to_stdout ? stderr : stdout, "wrote {}\n", f);
      return 0;
    };
  });
}

}  // namespace sweep::cli
