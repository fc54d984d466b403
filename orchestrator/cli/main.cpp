// The `sweep` command line: parses arguments, runs one subcommand, and maps errors to exit codes.
#include <fmt/core.h>

#include <malloc.h>

#include <cstdio>
#include <filesystem>

#include "cli/command.h"
#include "util/error.h"
#include "util/exit_codes.h"
#include "util/sinks.h"
#include "util/version.h"

namespace {

int run_main(int argc, char** argv) {
  CLI::App app{"sweep: run experiment campaigns on GPU clusters and report on them", "sweep"};
  app.set_version_flag("--version", std::string("sweep ") + sweep::kToolVersion);
  app.require_subcommand(1);
  sweep::cli::Action action;
  for (const auto& command : sweep::cli::kCommands) command.add(*app.add_subcommand(command.name, command.help), action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(sweep::ExitCode::usage);
  }
  return action();
}

/// The last word on stderr, which never throws: stderr may be a hung-up terminal (fmt::print throws
/// std::system_error on a failed write, which a catch block would turn into std::terminate).
/// An error's text may carry a label, a path or a value from a database or bundle someone sent: its
/// control characters (a terminal escape, a carriage return) are printed as visible \xNN, its lines kept.
void say_error(const char* prefix, const char* what) {
  std::fputs("sweep: ", stderr);
  std::fputs(prefix, stderr);
  std::fputs(sweep::terminal_text(what, true).c_str(), stderr);
  std::fputs("\n", stderr);
}

}  // namespace

int main(int argc, char** argv) {
  // Reports hold a campaign's metric rows in a few large vectors and strings; glibc would map each one
  // past 128 KiB separately and fault its pages in on every growth (a fifth of `sweep report`'s time on
  // 200,000 rows). Keep them in the heap instead.
  mallopt(M_MMAP_THRESHOLD, 64 * 1024 * 1024);
  try {
    return run_main(argc, argv);
  } catch (const sweep::Error& e) {
    say_error("", e.what());
    return sweep::exit_code_for(e.kind());
  } catch (const std::filesystem::filesystem_error& e) {
    say_error("", e.what());
    return static_cast<int>(sweep::ExitCode::io);
  } catch (const std::exception& e) {
    say_error("internal error: ", e.what());
    return static_cast<int>(sweep::ExitCode::internal);
  }
}
