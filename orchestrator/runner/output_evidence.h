#pragma once
// The last lines a failed run printed, read from its run directory and added to its failure reason
// (util/output_tail.h), so `sweep run`, `show` and the reports show the program's own words.
#include <string>
#include <string_view>

namespace sweep::runner {

/// The most of a file's end that is read for its tail: enough for kTailLines lines of kTailBytes.
inline constexpr std::size_t kTailReadBytes = 64u << 10;

/// `reason` with the tail of the first of the run's output files that is not blank: `setup.log` for a
/// failed setup line (class `setup`), then `stderr`, then `stdout`. Reads at most the last
/// kTailReadBytes of each; a missing or unreadable file counts as blank, and `reason` comes back as it
/// is when all are.
std::string with_output_tail(std::string reason, std::string_view failure_class, const std::string& run_dir);

}  // namespace sweep::runner
