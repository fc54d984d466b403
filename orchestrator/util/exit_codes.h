#pragma once
// The one exit-code table of the `sweep` command (documented in README.md and docs/experiment-format.md).
#include <array>

#include "util/error.h"

namespace sweep {

enum class ExitCode : int {
  ok = 0,
  runs_failed = 1,          // the command worked, but at least one run of the campaign failed
  usage = 2,                // bad command-line arguments
  invalid_experiment = 3,   // the experiment file is invalid; nothing was written
  not_found = 4,            // no such campaign or file
  database = 5,             // the database cannot be used
  io = 6,                   // files or processes could not be created
  // The gates (`sweep compare --fail-on`, `sweep nightly`, `sweep check`; docs/nightly.md#exit-codes):
  gate_failed = 1,          // a verdict the gate fails on: regressed (inconclusive with --fail-on inconclusive), a reference not met
  incomparable = 7,         // could not compare: something the baseline had is missing, or the campaigns differ
  gate_runs_failed = 8,     // the campaign under test failed: a run failed after its retries
  internal = 70,            // a bug
  interrupted = 130,        // SIGINT/SIGTERM; the campaign can be resumed
};

struct ExitCodeRow {
  ErrorKind kind;
  ExitCode code;
};

inline constexpr std::array<ExitCodeRow, 8> kExitCodes{{
    {ErrorKind::usage, ExitCode::usage},
    {ErrorKind::invalid_experiment, ExitCode::invalid_experiment},
    {ErrorKind::not_found, ExitCode::not_found},
    {ErrorKind::database, ExitCode::database},
    {ErrorKind::io, ExitCode::io},
    {ErrorKind::incomparable, ExitCode::incomparable},
    {ErrorKind::interrupted, ExitCode::interrupted},
    {ErrorKind::internal, ExitCode::internal},
}};

inline int exit_code_for(ErrorKind kind) {
  for (const auto& row : kExitCodes)
    if (row.kind == kind) return static_cast<int>(row.code);
  return static_cast<int>(ExitCode::internal);
}

}  // namespace sweep
