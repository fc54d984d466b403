#pragma once
// A run's telemetry at ingest: its telemetry.<node> files (docs/telemetry.md; written by the sampler the
// job script runs: runner/telemetry_sampling.h) read, summarized into ordinary metrics with units, and
// named in the run's provenance. A telemetry file never decides the run's verdict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "store/records.h"

namespace sweep::runner {

/// The largest telemetry file read (a day of 1 s samples of eight GPUs is about 55 MiB).
inline constexpr std::size_t kMaxTelemetryBytes = 256u << 20;
/// A run's budget over all its telemetry files: at most this many files, of this many bytes together
/// (parsed, a file takes several times its size in memory: at most a few GB for the whole run).
inline constexpr std::size_t kMaxTelemetryFiles = 1024;
inline constexpr std::uintmax_t kMaxTelemetryRunBytes = 256u << 20;

/// Adds to `result` the telemetry metrics (telemetry::summarize, and telemetry::per_joule over the
/// workload's own metrics of one value) and provenance of the run in `run_dir`:
///   telemetry.files  the files read, space-separated names relative to run_dir, sorted (the time series
///                    stay there: the report's timeline reads them)
///   telemetry.error  why the run has no telemetry: the first malformed record as file:line:column, a
///                    file refused (a symlink, not a regular file, another user's, over kMaxTelemetryBytes;
///                    a sampler's file for a node not of the run, one whose `node` record is not its name's
///                    node, a second file claiming a node; more than kMaxTelemetryFiles files, or files
///                    over kMaxTelemetryRunBytes together, refused before any is read), the job script's
///                    telemetry_failed (the sampler missing or refusing), or no file at all
///   and the summary's own keys (telemetry.sources, telemetry.gpu_energy_from, telemetry.cut_short).
/// Files: only directory entries named telemetry.<node> (<node> of letters, digits, '.', '_', '-'),
/// opened without following a symlink; of those, only the run's nodes' when the job script recorded
/// them (runner/telemetry_sampling.h's kTelemetryNodesFile; another such file that is not a sampler's,
/// telemetry.json, is skipped with a note). Any refused or malformed file leaves the run without
/// telemetry metrics (a sum over the other nodes would pass for the whole run), with a warning in
/// `warnings`. A metric name the workload reported itself keeps the workload's value, with a warning.
void add_telemetry(const std::string& run_dir, store::AttemptResult& result, std::vector<std::string>& warnings);

}  // namespace sweep::runner
