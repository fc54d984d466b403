#pragma once
// The environment part of a job script: the site's and the experiment's `setup` lines and `env`
// variables, already rendered for one run, turned into the shell text that the job-script templates
// insert as {{{environment}}} right before the workload. Pure.
//
// Contract of the text (job script format 1):
//   - Runs in the job's own shell, in the run directory, after the job's stdout/stderr are set up.
//   - When there are setup lines, `module` is made available first if the shell lacks it (Lmod's or
//     environment-modules' bash init, where installed). Each line runs as `{ LINE\n} >> setup.log 2>&1`
//     in this shell, so `source venv/bin/activate` and `module load` change what follows. A line that
//     fails writes ./setup_failed (format 1: line, status, text), prints the end of setup.log to stderr
//     and exits with the line's status; runner/ingest classifies the run as failure class "setup".
//   - Then every variable is exported, in order, as one shell-quoted word (values are literal). Secret
//     variables are not in the text at all: the job receives them through its process environment
//     (runner/job_secrets.h), and a setup line refers to its literal secrets as "${SWEEP_SECRET_<k>}".
//   - Last, ./provenance/ receives env_set (NAME=value of each variable as the workload sees it, and
//     NAME=*** for each secret), setup
//     (the rendered lines), modules (one loaded module per line, from $LOADEDMODULES), python (when
//     there are setup lines: the interpreter that python3 on PATH then runs, as its sys.executable, and
//     its version) and, when a site file applies, site (its path and SHA-256). Only non-empty values
//     are written, with shell builtins: without setup lines the block starts no process.
#include <string>
#include <utility>
#include <vector>

namespace sweep::runner {

struct JobEnvironment {
  std::vector<std::pair<std::string, std::string>> env;  // name, rendered value; names distinct
  std::vector<std::string> setup;                        // rendered shell lines
  std::string site;                                      // the site file applied ("" = none)
  std::vector<std::string> secrets{};                    // names of secret variables: recorded as ***
};

/// The shell text described above.
std::string environment_block(const JobEnvironment& environment);

/// Name of the file a failed setup line leaves in the run directory.
inline constexpr const char* kSetupFailedFile = "setup_failed";

}  // namespace sweep::runner
