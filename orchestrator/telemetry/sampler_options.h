#pragma once
// The command line of `sweep-telemetry` (docs/telemetry.md, "The sampler"), parsed by hand (the
// program links only util). Pure.
#include <set>
#include <string>
#include <vector>

namespace sweep::telemetry {

inline constexpr int kDefaultIntervalMs = 1000;
inline constexpr int kMinIntervalMs = 50;
inline constexpr int kMaxIntervalMs = 60000;

struct SamplerOptions {
  enum class Mode { sample, stop, help };
  Mode mode = Mode::sample;
  std::string out;                                     // --out FILE (required to sample)
  int interval_ms = kDefaultIntervalMs;                // --interval-ms
  std::set<std::string> sources{"proc", "rapl", "nvml"};  // --sources
  std::string marker;                                  // --marker NAME=VALUE ("" none)
  int root_pid = 0;                                    // --root PID (0 none)
  std::string sysfs_root = "/sys";                     // --sysfs-root
  bool daemon = false;                                 // --daemon
  int start_timeout_ms = 30000;                        // --start-timeout-ms: the daemon's first sample
  int stop_pid = 0;                                    // `stop PID`
};

/// The names `--sources` accepts, in the file's order.
const std::vector<std::string>& source_names();

/// Parses argv[1..]. Throws Error(usage) naming the option and what it expected.
SamplerOptions parse_sampler_options(const std::vector<std::string>& args);

/// The text of --help.
std::string sampler_usage();

}  // namespace sweep::telemetry
