#include "runner/ingest.h"

#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iterator>
#include <map>
#include <set>

#include "parse/missing_metric.h"
#include "parse/nccl_transports.h"
#include "parse/reduce.h"
#include "runner/container_check.h"
#include "runner/container_messages.h"
#include "runner/gpu_facts.h"
#include "runner/job_environment.h"
#include "runner/nic_counters.h"
#include "runner/nic_sampling.h"
#include "runner/output_evidence.h"
#include "runner/success_criterion.h"
#include "runner/telemetry_ingest.h"
#include "util/safe_files.h"
#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

/// Reads up to kMaxIngestBytes of a file; a missing file reads as absent.
std::optional<std::string> read_capped(const std::string& path, std::vector<std::string>& warnings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
  in.seekg(0);
  const std::size_t take = std::min(size, kMaxIngestBytes);
  text.resize(take);
  in.read(text.data(), static_cast<std::streamsize>(take));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (size > take)
    warnings.push_back(fmt::format("{}: only the first {} of {} bytes were read for metrics", path, take, size));
  return text;
}

std::string signal_text(int sig) {
  const char* name = sigabbrev_np(sig);
  return name ? fmt::format("signal {} (SIG{})", sig, name) : fmt::format("signal {}", sig);
}

/// Best effort, as before: a run directory that cannot take the file loses only this record of it.
/// Never follows a symlink nor rewrites a file that is not the user's own (util/safe_files.h).
void write_best_effort(const std::string& path, const std::string& text) {
  try {
    replace_own_file(path, text, 0644);
  } catch (const Error&) {
  }
}

void write_exit_status(const std::string& run_dir, const exec::Outcome& o, const store::AttemptResult& r) {
  std::ostringstream out;
  out << "format=1\n"
      << "exit_code=" << o.exit_code << "\n"
      << "signal=" << o.signal << "\n"
      << "timed_out=" << (o.timed_out ? 1 : 0) << "\n"
      << fmt::format("elapsed_s={:.6f}\n", o.elapsed_s) << "state=" << store::state_name(r.state) << "\n"
      << "failure_class=" << r.failure_class << "\n";
  write_best_effort(run_dir + "/exit_status", out.str());
}

store::AttemptResult failed(std::string_view cls, std::string reason) {
  store::AttemptResult r;
  r.state = store::RunState::failed;
  r.failure_class = cls;
  r.failure_reason = std::move(reason);
  return r;
}

/// The `key=value` lines of a format-1 record (setup_failed, container_failed, provenance/container), in order.
std::vector<std::pair<std::string, std::string>> key_value_lines(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (const auto eq = line.find('='); eq != std::string::npos) out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  return out;
}

/// Largest provenance file stored per key.
constexpr std::size_t kMaxProvenanceBytes = 64u << 10;

/// The files the job script wrote under <run_dir>/provenance/, as `job.<file>` keys (nccl_version as
/// `nccl.version`), and the GPU facts read from its nvidia-smi files (runner/gpu_facts.h).
store::KeyValues job_provenance(const std::string& run_dir) {
  store::KeyValues out;
  std::string gpu_list, gpu_banner;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir + "/provenance", ec)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text(kMaxProvenanceBytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const std::string name = entry.path().filename().string();
    if (name == kContainerProvenanceFile) {  // container.<key> for each line but its format
      for (auto& kv : key_value_lines(text))
        if (kv.first != "format") out.emplace_back("container." + kv.first, std::move(kv.second));
      continue;
    }
    if (name == "nvidia_smi_L") gpu_list = text;
    if (name == "nvidia_smi") gpu_banner = text;
    // nccl-version's answer is the same fact as the local runner's nccl.version, so it gets that key.
    out.emplace_back(name == "nccl_version" ? "nccl.version" : "job." + name, std::move(text));
  }
  for (auto& kv : gpu_facts(gpu_list, gpu_banner)) out.push_back(std::move(kv));
  return out;
}

/// nccl.net and nccl.transports from what NCCL_DEBUG=INFO printed on the run's stdout and stderr, as far
/// as ingest read them (kMaxIngestBytes each; NCCL prints these lines at initialisation, near the start).
store::KeyValues nccl_transport_provenance(const std::map<std::string, std::string>& texts) {
  std::vector<std::string_view> sides;
  for (const char* side : {"stdout", "stderr"})
    if (const auto it = texts.find(side); it != texts.end()) sides.emplace_back(it->second);
  return parse::nccl_transport_keys(parse::scan_nccl_transports(sides));
}

/// The fields of the record at `path` (key_value_lines; a key's last line wins).
std::map<std::string, std::string> record_fields(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::map<std::string, std::string> fields;
  for (auto& [key, value] : key_value_lines(text)) fields[key] = std::move(value);
  return fields;
}

/// The failure a setup line left in the run directory (runner/job_environment.h), if any.
std::optional<store::AttemptResult> setup_failure(const std::string& run_dir) {
  const std::string path = run_dir + "/" + kSetupFailedFile;
  if (!std::filesystem::exists(path)) return std::nullopt;
  auto fields = record_fields(path);
  return failed(failure::kSetup, fmt::format("setup line {} failed with status {}: {} (its output is in setup.log)",
                                             fields["line"], fields["status"], fields["text"]));
}

/// The failure the container check left in the run directory (runner/container_check.h), if any: its
/// class (a container class's retry key; any other reads as CONTAINER) and its text.
std::optional<store::AttemptResult> container_failure(const std::string& run_dir) {
  const std::string path = run_dir + "/" + kContainerFailedFile;
  if (!std::filesystem::exists(path)) return std::nullopt;
  auto fields = record_fields(path);
  std::string_view cls = failure::kContainer;
  for (const std::string_view c : {failure::kContainerRuntime, failure::kContainerImage, failure::kContainerGpu})
    if (fields["class"] == failure::retry_key_of(c)) cls = c;
  return failed(cls, fields["text"].empty() ? "the container check failed (container_failed gives no text)" : fields["text"]);
}

/// A run whose container check passed (on the job's first node) and whose workload then exited non-zero
/// (`r`, its reason already with its output's tail): reclassified when a line of its stderr `text` says
/// that the runtime's program or image is missing on a node (runner/container_messages.h).
void reclassify_container_failure(const std::string& run_dir, const std::string& text, store::AttemptResult& r) {
  const std::string runtime = record_fields(run_dir + "/provenance/" + kContainerProvenanceFile)["runtime"];
  std::optional<ContainerStderrFailure> found;
  try {
    if (!runtime.empty()) found = container_failure_in(runtime, text);
  } catch (const Error&) {  // a runtime= that sweep did not write (the run directory is the workload's too)
  }
  if (!found) return;
  const std::string what = found->failure_class == failure::kContainerRuntime
                               ? fmt::format("the container runtime's program {} is not found", container_messages(runtime).program)
                               : fmt::format("the container image of {} is not there", runtime);
  r.failure_class = found->failure_class;
  r.failure_reason = fmt::format("{} {} (the container check passed on the job's first node): {}; {}", what,
                                 found->node.empty() ? "on a node" : "on node " + found->node, found->line,
                                 r.failure_reason);
}

/// For each required metric that `extraction` lacks, why and what to change (parse/missing_metric.h).
std::string missing_details(const parse::Extractor& extractor, const parse::Extraction& extraction,
                            const spec::Success& success, const std::map<std::string, std::string_view>& sources) {
  std::set<std::string> found;
  for (const auto& o : extraction.observations) found.insert(o.name);
  std::string out;
  for (const auto& name : success.metrics)
    if (!found.count(name)) out += "\n" + parse::explain_missing(extractor.rules(), name, sources);
  return out;
}

/// nic_volume and nic_throughput from the run's network-counter snapshots (runner/nic_counters.h).
/// None when the run wrote no end snapshot (counters off, or the workload was killed); a snapshot that
/// cannot be read or a node without both moments is a warning.
void add_nic_metrics(const std::string& run_dir, store::AttemptResult& result, std::vector<std::string>& warnings) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec))
    if (entry.path().filename().string().rfind(kNicSnapshotPrefix, 0) == 0) files.push_back(entry.path());
  const auto is_end = [](const auto& p) { return p.filename().string().rfind(std::string(kNicSnapshotPrefix) + "end.", 0) == 0; };
  if (std::none_of(files.begin(), files.end(), is_end)) return;
  for (const char* name : {"nic_volume", "nic_throughput"})
    if (std::any_of(result.metrics.begin(), result.metrics.end(), [&](const auto& m) { return m.name == name; })) {
      warnings.push_back(fmt::format("{}: the workload reported its own {}, so the network counters were not stored", run_dir, name));
      return;
    }
  try {
    std::vector<NicSnapshot> snapshots;
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      snapshots.push_back(parse_nic_snapshot(text, path.string()));
    }
    const NicMeasure m = nic_measure(snapshots);
    result.metrics.push_back({"nic_volume", 0, m.volume_bytes, "B", ""});
    result.metrics.push_back({"nic_throughput", 0, m.throughput_bps, "b/s", ""});
    result.provenance.emplace_back("nic_span_s", fmt::format("{:.6f}", m.span_s));
    result.provenance.emplace_back("nic_sampled_span_s", fmt::format("{:.6f}", m.sampled_span_s));
    if (!m.note.empty()) warnings.push_back(fmt::format("{}: network counters: {}", run_dir, m.note));
  } catch (const Error& e) {
    warnings.push_back(fmt::format("{}: network counters: {}", run_dir, e.what()));
  }
}

}  // namespace

store::AttemptResult judge(const exec::Outcome& outcome, const parse::Extraction& extraction,
                           const spec::Success& success) {
  store::AttemptResult r;
  std::set<std::string> found;
  for (const auto& o : extraction.observations) found.insert(o.name);
  std::vector<std::string> missing;
  for (const auto& name : success.metrics)
    if (!found.count(name)) missing.push_back(name);

  if (outcome.timed_out)
    r = failed(failure::kTimeout, fmt::format("exceeded its time limit after {:.1f} s", outcome.elapsed_s));
  else if (outcome.signal != 0)
    r = failed(failure::kSignal, "killed by " + signal_text(outcome.signal));
  else if (outcome.exit_code != success.exit_code)
    r = failed(failure::kExitCode, fmt::format("exited with code {} (expected {})", outcome.exit_code, success.exit_code));
  else if (auto unreduced = parse::unreduced_matches(extraction.matches))
    r = failed(failure::kUnreducedMetric, std::move(*unreduced));
  else if (!missing.empty())
    r = failed(failure::kMissingMetric, fmt::format("required metric{} not found: {}", missing.size() > 1 ? "s" : "",
                                                    join(missing, ", ")));
  else if (auto why = success.criterion ? criterion_failure(*success.criterion, extraction.observations) : std::nullopt)
    r = failed(failure::kCriterion, std::move(*why));
  else
    r.state = store::RunState::succeeded;

  if (outcome.signal == 0 && outcome.exit_code >= 0) r.exit_code = outcome.exit_code;
  if (outcome.signal != 0) r.signal = outcome.signal;
  r.elapsed_s = outcome.elapsed_s;
  for (const auto& o : extraction.observations)
    r.metrics.push_back({o.name, static_cast<std::int64_t>(o.index), o.value, o.unit, o.better});
  for (const auto& m : extraction.matches)
    r.provenance.emplace_back(std::string(store::kMatchesPrefix) + m.name, std::to_string(m.count));
  return r;
}

store::AttemptResult ingest(const exec::Outcome& outcome, const std::string& run_dir,
                            const parse::Extractor& extractor, const spec::Success& success, bool nic_counters,
                            bool telemetry) {
  std::vector<std::string> warnings;
  std::map<std::string, std::string> texts;
  std::vector<std::string> sources = extractor.sources();
  for (const char* standard : {"stdout", "stderr"})
    if (std::find(sources.begin(), sources.end(), standard) == sources.end()) sources.emplace_back(standard);
  for (const auto& source : sources)
    if (auto text = read_capped(run_dir + "/" + source, warnings)) texts.emplace(source, std::move(*text));

  std::map<std::string, std::string_view> views(texts.begin(), texts.end());
  parse::Extraction extraction = extractor.extract(views);
  warnings.insert(warnings.end(), extraction.warnings.begin(), extraction.warnings.end());

  store::AttemptResult result = judge(outcome, extraction, success);
  for (auto* before_workload : {&setup_failure, &container_failure})
    if (auto early = before_workload(run_dir); early && !outcome.timed_out && outcome.signal == 0) {
      early->exit_code = result.exit_code;
      early->elapsed_s = result.elapsed_s;
      result = std::move(*early);
      break;
    }
  if (result.failure_class == failure::kMissingMetric)
    result.failure_reason += missing_details(extractor, extraction, success, views);
  if (result.state == store::RunState::failed)
    result.failure_reason = with_output_tail(std::move(result.failure_reason), result.failure_class, run_dir);
  if (const auto err = texts.find("stderr"); result.failure_class == failure::kExitCode && err != texts.end())
    reclassify_container_failure(run_dir, err->second, result);
  for (auto& kv : job_provenance(run_dir)) result.provenance.push_back(std::move(kv));
  for (auto& kv : nccl_transport_provenance(texts)) result.provenance.push_back(std::move(kv));
  if (nic_counters) add_nic_metrics(run_dir, result, warnings);
  if (telemetry) add_telemetry(run_dir, result, warnings);
  write_exit_status(run_dir, outcome, result);
  if (!warnings.empty()) {
    std::string text;
    for (const auto& w : warnings) text += w + "\n";
    write_best_effort(run_dir + "/ingest_warnings", text);
    result.provenance.emplace_back("ingest_warnings", std::to_string(warnings.size()));
  } else {
    ::unlink((run_dir + "/ingest_warnings").c_str());  // an earlier ingest's (reparse): no longer true
  }
  return result;
}

}  // namespace sweep::runner
