// sweep export <campaign> [--format csv|jsonl] [--output FILE]
// Every metric value of the campaign as one long table, for pandas, R or a spreadsheet (docs/database.md).
#include <fmt/core.h>

#include <cstdio>

#include "cli/command.h"
#include "report/export.h"
#include "store/store.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace sweep::cli {
namespace {

struct Options {
  std::string label, format = "csv", output;
  Paths paths;
};

int run(const Options& o) {
  const store::Store db(o.paths.db());
  const auto format = o.format == "jsonl" ? report::ExportFormat::jsonl : report::ExportFormat::csv;
  if (o.output.empty()) {
    report::export_campaign(db, o.label, format, stdout);
    if (std::fflush(stdout) != 0) throw Error(ErrorKind::io, "cannot write to standard output");
    return 0;
  }
  // Written beside the target under a fresh name (util/atomic_file.h) and renamed: a reader never sees
  // half an export.
  AtomicFile file(o.output);
  const std::size_t rows = report::export_campaign(db, o.label, format, file.stream());
  file.commit();
  fmt::print(stderr, "wrote {}: {} values\n", o.output, rows);
  return 0;
}

}  // namespace

void add_export(CLI::App& sub, Action& action) {
  auto o = std::make_shared<Options>();
  sub.add_option("campaign", o->label, "The campaign to export")->required();
  sub.add_option("--format", o->format, "csv or jsonl")->check(CLI::IsMember({"csv", "jsonl"}))->capture_default_str();
  sub.add_option("--output", o->output, "Write to this file instead of standard output");
  o->paths.add_to(sub);
  sub.callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace sweep::cli
