// sweep export <campaign> [--format csv|jsonl] [--output FILE]
// Every metric value of the campaign as one long table, for pandas, R or a spreadsheet (docs/database.md).
// sweep export --bundle <campaign> [--output FILE]
// The campaign alone as a bundle for `sweep import` in another database (docs/forecasts.md).
#include <fmt/core.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "cli/command.h"
#include "report/export.h"
#include "runner/provenance.h"
#include "store/bundle.h"
#include "store/store.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/scratch_directory.h"
#include "util/version.h"

namespace sweep::cli {
namespace {

struct Options {
  std::string label, format = "csv", output;
  bool bundle = false;
  Paths paths;
};

/// The exporting host's facts a bundle carries: who and what exported it, not its environment.
store::BundleFacts bundle_facts() {
  const runner::HostFacts host = runner::host_facts();
  store::BundleFacts facts{iso8601(SystemClock().wall()), kToolVersion, {{"hostname", host.hostname}, {"user", host.user}}};
  for (const auto& [key, value] : host.run_provenance)
    if (key == "cpu_model" || key == "cpu_count" || key == "kernel" || key == "os") facts.host.emplace_back(key, value);
  return facts;
}

/// Copies the finished file `path` to standard output.
void stream_to_stdout(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
    if (std::fwrite(buffer, 1, static_cast<std::size_t>(in.gcount()), stdout) != static_cast<std::size_t>(in.gcount()))
      throw Error(ErrorKind::io, "cannot write the bundle to standard output");
  if (in.bad() || std::fflush(stdout) != 0) throw Error(ErrorKind::io, "cannot write the bundle to standard output");
}

/// The bundle is written whole to a file of its own first: to --output through a temporary beside it
/// that is renamed only once complete, else in a private directory and then streamed, so a failure
/// leaves no half bundle anywhere.
int run_bundle(const Options& o) {
  const store::Store db(o.paths.db());
  if (!o.output.empty()) {
    AtomicFile file(o.output);
    store::export_bundle(db, o.label, bundle_facts(), file.temp_path());
    file.commit();
    fmt::print(stderr, "wrote {}: campaign {} (import it with: sweep import {})\n", o.output, o.label, o.output);
    return 0;
  }
  if (::isatty(STDOUT_FILENO))
    throw Error(ErrorKind::usage, "a bundle is a binary file: redirect standard output (sweep export --bundle LABEL > "
                                  "LABEL.sweep) or pass --output FILE");
  const ScratchDirectory dir({}, "sweep-export-", {"bundle.sweep", "bundle.sweep-journal", "bundle.sweep-wal", "bundle.sweep-shm"});
  const std::string path = (dir.path() / "bundle.sweep").string();
  store::export_bundle(db, o.label, bundle_facts(), path);
  stream_to_stdout(path);
  return 0;
}

int run(const Options& o) {
  if (o.bundle) return run_bundle(o);
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
  sub.add_flag("--bundle", o->bundle,
               "Write the campaign alone as a bundle (an SQLite file of its runs, values and provenance) for sweep "
               "import in another database")
      ->excludes("--format");
  o->paths.add_to(sub);
  sub.callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace sweep::cli
