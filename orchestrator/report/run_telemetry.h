#pragma once
// A run's telemetry files read back for the report (docs/reports.md#telemetry-timeline). The names come
// from the database (provenance `telemetry.files`), which the report does not trust: a name is read only
// when it is `telemetry.<node>` with a safe node name (util/names.h: one path component, no '/', no
// leading '.'), and the file only when it is a regular file, not a symlink (opened with O_NOFOLLOW),
// trusted as util/safe_files.h says (the user's or root's, not writable by others), and within the
// report's TelemetryBudget (a file's size, all files' sizes together). Whatever is refused or malformed becomes a problem line naming the file (and
// file:line:column for a malformed record), never an error of the report.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "telemetry/log.h"

namespace sweep::report {

/// The provenance key that names a run's telemetry files, space-separated, relative to its run directory.
inline constexpr std::string_view kTelemetryFilesKey = "telemetry.files";
inline constexpr std::uintmax_t kMaxTelemetryBytes = 64u << 20;         // a file: 64 MiB, days of samples at 1 s
inline constexpr std::uintmax_t kMaxReportTelemetryBytes = 256u << 20;  // all the files one report reads
inline constexpr std::size_t kMaxTelemetryFiles = 256;                   // nodes of one run

/// What a report may still read: each file at most `file_bytes`, all together at most `bytes_left`
/// (each file read takes its size from it; a file larger than what is left is refused, unread).
struct TelemetryBudget {
  std::uintmax_t file_bytes = kMaxTelemetryBytes;
  std::uintmax_t bytes_left = kMaxReportTelemetryBytes;
};

/// Why `name` may not be read as a telemetry file, or "" when it may. Pure.
std::string telemetry_name_problem(std::string_view name);

struct RunTelemetry {
  std::vector<telemetry::Log> logs;   // the files that were read and parsed
  std::vector<std::string> problems;  // "<run_dir>/<name>: why", one per file refused or malformed
};

/// Reads and parses each file `files` names in `run_dir` (which must be given: "" reads nothing) within
/// `budget`, which it lowers. Never throws for a file's fault.
RunTelemetry read_run_telemetry(const std::string& run_dir, std::string_view files, TelemetryBudget& budget);

}  // namespace sweep::report
