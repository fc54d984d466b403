#include "runner/telemetry_ingest.h"


#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>

#include "runner/telemetry_sampling.h"
#include "telemetry/log.h"
#include "telemetry/summary.h"
#include "util/error.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

/// The node part of a telemetry file name, when the name is telemetry.<node> with a plain node name.
bool is_telemetry_name(const std::string& name) {
  const std::string prefix = telemetry::kFilePrefix;
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

/// The whole file at `path` (util/safe_files.h's read_own_file: no symlink followed, this user's or what
/// sharing allows, at most `limit` bytes), or Error(io) naming the path and why not.
std::string read_own_file(const std::string& path, std::size_t limit) {
  try {
    return sweep::read_own_file(path, static_cast<std::uintmax_t>(limit));
  } catch (const Error& e) {
    throw Error(ErrorKind::io, fmt::format("{}: {}", path, e.message()));
  }
}

/// The telemetry file names in `run_dir`, sorted.
std::vector<std::string> telemetry_files(const std::string& run_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec))
    if (const std::string name = entry.path().filename().string(); is_telemetry_name(name)) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

/// Why the job script's sampler did not start (its telemetry_failed file), else a general reason.
std::string no_file_reason(const std::string& run_dir) {
  try {
    std::string text = read_own_file(run_dir + "/" + kTelemetryFailedFile, 4096);
    text = text.substr(0, text.find('\n'));
    std::replace_if(text.begin(), text.end(), [](char c) { return std::iscntrl(static_cast<unsigned char>(c)); }, ' ');
    if (!text.empty()) return "the sampler did not start: " + text;
  } catch (const Error&) {
  }
  return "no telemetry file: the sampler did not start, or the job ended before it wrote one";
}

/// The workload's metrics of one value each (a metric per message size has no one value per run).
std::map<std::string, double> single_values(const std::vector<store::MetricRecord>& metrics) {
  std::map<std::string, int> count;
  for (const auto& m : metrics) ++count[m.name];
  std::map<std::string, double> out;
  for (const auto& m : metrics)
    if (count[m.name] == 1) out[m.name] = m.value;
  return out;
}

void add_metric(const telemetry::Metric& m, store::AttemptResult& result, std::vector<std::string>& warnings,
                const std::string& run_dir) {
  if (std::any_of(result.metrics.begin(), result.metrics.end(), [&](const auto& r) { return r.name == m.name; })) {
    warnings.push_back(fmt::format("{}: the workload reported its own {}, so telemetry's was not stored", run_dir, m.name));
    return;
  }
  result.metrics.push_back({m.name, 0, m.value, m.unit, m.better});
}

}  // namespace

void add_telemetry(const std::string& run_dir, store::AttemptResult& result, std::vector<std::string>& warnings) {
  const std::vector<std::string> names = telemetry_files(run_dir);
  const auto fail = [&](const std::string& why) {
    result.provenance.emplace_back("telemetry.error", why);
    warnings.push_back(fmt::format("{}: telemetry: {}", run_dir, why));
  };
  std::vector<telemetry::Log> logs;
  std::vector<std::string> read;  // the sampler's files among `names`
  try {
    for (const std::string& name : names) {
      const std::string text = read_own_file(run_dir + "/" + name, kMaxTelemetryBytes);
      // A workload's own file that happens to be named telemetry.<something> (telemetry.json) is not
      // the sampler's: skipped with a note, never a reason to lose the run's telemetry.
      if (!text.starts_with("sweep-telemetry format=")) {
        warnings.push_back(fmt::format("{}/{}: not a telemetry file of the sampler (its first line is not "
                                       "\"sweep-telemetry format=...\"): skipped", run_dir, name));
        continue;
      }
      logs.push_back(telemetry::parse_telemetry(text, run_dir + "/" + name));
      read.push_back(name);
    }
  } catch (const Error& e) {
    return fail(e.what());
  }
  if (logs.empty()) return fail(no_file_reason(run_dir));
  const telemetry::Summary summary = telemetry::summarize(logs);
  const std::map<std::string, double> workload = single_values(result.metrics);
  for (const telemetry::Metric& m : summary.metrics) add_metric(m, result, warnings, run_dir);
  for (const telemetry::Metric& m : telemetry::per_joule(summary, workload)) add_metric(m, result, warnings, run_dir);
  result.provenance.emplace_back("telemetry.files", join(read, " "));
  for (const auto& kv : summary.provenance) result.provenance.push_back(kv);
}

}  // namespace sweep::runner
