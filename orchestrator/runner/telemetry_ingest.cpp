#include "runner/telemetry_ingest.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "runner/telemetry_sampling.h"
#include "telemetry/log.h"
#include "telemetry/summary.h"
#include "util/error.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

/// How every file the sampler writes begins.
constexpr std::string_view kMagic = "sweep-telemetry format=";

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

std::string node_of(const std::string& name) { return name.substr(std::string(telemetry::kFilePrefix).size()); }

/// The run's nodes as the job script recorded them (kTelemetryNodesFile), nullopt when it recorded none.
std::optional<std::set<std::string>> run_nodes(const std::string& run_dir) {
  std::string text;
  try {
    text = read_own_file(run_dir + "/" + kTelemetryNodesFile, 1u << 20);
  } catch (const Error&) {
    return std::nullopt;
  }
  std::set<std::string> nodes;
  for (const std::string& line : split(text, '\n'))
    if (is_telemetry_name(telemetry::kFilePrefix + line)) nodes.insert(line);
  if (nodes.empty()) return std::nullopt;
  return nodes;
}

/// Whether the file at `path` begins as the sampler's files do (read without following a symlink).
bool starts_as_sampler_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st{};
  char head[64]{};
  const bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                  ::read(fd, head, kMagic.size()) == static_cast<ssize_t>(kMagic.size()) &&
                  std::string_view(head, kMagic.size()) == kMagic;
  ::close(fd);
  return ok;
}

/// Every node of `nodes` has a file among `files` (when any was found: none at all is no_file_reason's):
/// else Error(io) naming the nodes without one, since the others' sum would pass for the whole run. The
/// first line of the multi-node step's errors, when it left any, says why.
void check_every_node(const std::string& run_dir, const std::vector<std::string>& files,
                      const std::optional<std::set<std::string>>& nodes) {
  if (!nodes || files.empty()) return;
  std::vector<std::string> missing;
  for (const std::string& node : *nodes)
    if (std::none_of(files.begin(), files.end(), [&](const std::string& f) { return node_of(f) == node; }))
      missing.push_back(node);
  if (missing.empty()) return;
  std::string why;
  try {
    const std::string errors = read_own_file(run_dir + "/telemetry_step_errors", 1u << 20);
    if (const auto line = errors.substr(0, std::min(errors.find('\n'), std::size_t{300})); !line.empty())
      why = fmt::format(" (telemetry_step_errors: {})", line);
  } catch (const Error&) {
  }
  throw Error(ErrorKind::io, fmt::format("{}: no sampler file for node {} of this run ({} lists {}){}: the other "
                                         "nodes' sum would pass for the whole run", run_dir, join(missing, ", "),
                                         kTelemetryNodesFile, join(std::vector<std::string>(nodes->begin(), nodes->end()), " "), why));
}

/// The files of `names` to read: those of the run's nodes when it knows them (`nodes`), else all. A
/// sampler's file for another node throws Error(io); another file of such a name is skipped with a note.
std::vector<std::string> files_to_read(const std::string& run_dir, const std::vector<std::string>& names,
                                       const std::optional<std::set<std::string>>& nodes, std::vector<std::string>& warnings) {
  if (names.size() > 4 * kMaxTelemetryFiles)  // before any is opened: a workload's million files cost nothing
    throw Error(ErrorKind::io, fmt::format("{}: {} files named telemetry.<name>, more than the {} looked at: refused",
                                           run_dir, names.size(), 4 * kMaxTelemetryFiles));
  if (!nodes) return names;
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (nodes->count(node_of(name))) {
      out.push_back(name);
    } else if (starts_as_sampler_file(run_dir + "/" + name)) {
      throw Error(ErrorKind::io, fmt::format("{}/{}: a sampler's file for node {}, which is not a node of this run "
                                             "(its {} names {}): refused", run_dir, name, node_of(name),
                                             kTelemetryNodesFile, join(std::vector<std::string>(nodes->begin(), nodes->end()), " ")));
    } else {
      warnings.push_back(fmt::format("{}/{}: not a node of this run, nor a sampler's file: skipped", run_dir, name));
    }
  }
  return out;
}

/// Refuses (Error(io)) more files than kMaxTelemetryFiles, or files that together hold more than
/// kMaxTelemetryRunBytes, naming the first file over the budget; nothing is read.
void check_budget(const std::string& run_dir, const std::vector<std::string>& files) {
  if (files.size() > kMaxTelemetryFiles)
    throw Error(ErrorKind::io, fmt::format("{}: {} telemetry files, more than the {} a run may have: none read", run_dir,
                                           files.size(), kMaxTelemetryFiles));
  std::uintmax_t total = 0;
  for (const std::string& name : files) {
    struct stat st{};
    if (::lstat((run_dir + "/" + name).c_str(), &st) != 0) continue;  // gone: its reading says so
    total += static_cast<std::uintmax_t>(st.st_size);
    if (total > kMaxTelemetryRunBytes)
      throw Error(ErrorKind::io, fmt::format("{}/{}: {} bytes, which take the run's telemetry files to {} bytes, over the "
                                             "budget of {} MiB a run: none read", run_dir, name, st.st_size, total,
                                             kMaxTelemetryRunBytes >> 20));
  }
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

/// The sampler's logs among `files` (their names in `read`); a file whose `node` record is not its name's
/// node, or claims a node another file claimed, throws Error(io), as does a malformed one.
std::vector<telemetry::Log> read_logs(const std::string& run_dir, const std::vector<std::string>& files,
                                      std::vector<std::string>& read, std::vector<std::string>& warnings) {
  std::vector<telemetry::Log> logs;
  std::map<std::string, std::string> claimed;  // node -> the file that claimed it
  std::uintmax_t total = 0;  // what was read: files that grew since check_budget's lstat count as they are now
  for (const std::string& name : files) {
    const std::string path = run_dir + "/" + name;
    const std::string text = read_own_file(path, kMaxTelemetryBytes);
    if ((total += text.size()) > kMaxTelemetryRunBytes)
      throw Error(ErrorKind::io, fmt::format("{}: the run's telemetry files grew past the budget of {} MiB a run "
                                             "while they were read: refused", path, kMaxTelemetryRunBytes >> 20));
    // A workload's own file that happens to be named telemetry.<something> (telemetry.json) is not
    // the sampler's: skipped with a note, never a reason to lose the run's telemetry.
    if (!text.starts_with(kMagic)) {
      warnings.push_back(fmt::format("{}: not a telemetry file of the sampler (its first line is not "
                                     "\"sweep-telemetry format=...\"): skipped", path));
      continue;
    }
    telemetry::Log log = telemetry::parse_telemetry(text, path);
    if (const auto other = claimed.find(log.node); other != claimed.end())
      throw Error(ErrorKind::io, fmt::format("{}: claims node {}, as {} does: two files for one node, refused", path,
                                             log.node, other->second));
    if (log.node != node_of(name))
      throw Error(ErrorKind::io, fmt::format("{}: its node record says {}, not {} as its name does: refused", path,
                                             log.node, node_of(name)));
    claimed.emplace(log.node, name);
    logs.push_back(std::move(log));
    read.push_back(name);
  }
  return logs;
}

}  // namespace

void add_telemetry(const std::string& run_dir, store::AttemptResult& result, std::vector<std::string>& warnings) {
  const auto fail = [&](const std::string& why) {
    result.provenance.emplace_back("telemetry.error", why);
    warnings.push_back(fmt::format("{}: telemetry: {}", run_dir, why));
  };
  std::vector<telemetry::Log> logs;
  std::vector<std::string> read;  // the sampler's files read
  try {
    const auto nodes = run_nodes(run_dir);
    const std::vector<std::string> files = files_to_read(run_dir, telemetry_files(run_dir), nodes, warnings);
    check_every_node(run_dir, files, nodes);
    check_budget(run_dir, files);
    logs = read_logs(run_dir, files, read, warnings);
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
