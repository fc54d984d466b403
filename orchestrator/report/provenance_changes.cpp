#include "report/provenance_changes.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "util/strings.h"

namespace sweep::report {
namespace {

constexpr std::string_view kShaPrefix = "sha256:";
constexpr std::size_t kShortHex = 12;

constexpr std::size_t kCommitHex = 40;

/// A fact of alternatives keeps only its first recorded key's value (ProvenanceFact::alternatives).
void keep_first(FactValue& value) {
  bool seen = false;
  for (auto& v : value) {
    if (seen) v.clear();
    seen = seen || !v.empty();
  }
}

/// The distinct values of `fact` over the runs of `values` that recorded any of its keys.
std::vector<FactValue> distinct_values(const ProvenanceFact& fact, const std::vector<store::AttemptValue>& values) {
  std::map<std::int64_t, FactValue> by_run;
  for (const auto& v : values)
    for (std::size_t k = 0; k < fact.keys.size(); ++k) {
      if (v.key != fact.keys[k]) continue;
      std::string value = fact.normalize ? fact.normalize(v.value) : v.value;
      if (value.empty()) continue;
      auto& run = by_run[v.run_id];
      run.resize(fact.keys.size());
      run[k] = std::move(value);
    }
  std::set<FactValue> distinct;
  for (auto& [run, value] : by_run) {
    if (fact.alternatives) keep_first(value);
    distinct.insert(std::move(value));
  }
  return {distinct.begin(), distinct.end()};
}

bool all_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string shortened(const std::string& value) {
  if (value.size() > kShaPrefix.size() + kShortHex && value.starts_with(kShaPrefix))
    return value.substr(0, kShaPrefix.size() + kShortHex) + "\u2026";
  if (value.size() == kCommitHex && all_hex(value)) return value.substr(0, kShortHex);
  return value;
}

/// job.modules (one module a line, runner/job_environment.cpp) on one line: the modules separated by spaces.
std::string one_line(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) word += c;
    else if (!word.empty()) words.push_back(std::exchange(word, {}));
  }
  if (!word.empty()) words.push_back(word);
  return join(words, " ");
}

/// Whether `v` says less than `w` and nothing else: the same first value, and each qualifier `v` has
/// is `w`'s (a run whose image id is unknown beside one with the same image and its id).
bool subsumed(const FactValue& v, const FactValue& w) {
  if (v == w || v.empty() || v.size() != w.size() || v[0] != w[0]) return false;
  for (std::size_t k = 1; k < v.size(); ++k)
    if (!v[k].empty() && v[k] != w[k]) return false;
  return true;
}

bool subsumed_in(const FactValue& v, const std::vector<FactValue>& a, const std::vector<FactValue>& b) {
  for (const auto* side : {&a, &b})
    for (const auto& w : *side)
      if (subsumed(v, w)) return true;
  return false;
}

/// Whether every value of `side` is one of `other`'s, or subsumes one, or is subsumed by one.
bool matched(const std::vector<FactValue>& side, const std::vector<FactValue>& other) {
  for (const auto& v : side) {
    bool found = false;
    for (const auto& w : other) found = found || v == w || subsumed(v, w) || subsumed(w, v);
    if (!found) return false;
  }
  return true;
}

std::string value_text(const FactValue& value, bool unknown_noted, const std::string& unknown, bool alternatives) {
  if (alternatives) {
    for (const auto& v : value)
      if (!v.empty()) return shortened(v);
    return "none";
  }
  std::vector<std::string> qualifiers;
  for (std::size_t k = 1; k < value.size(); ++k)
    if (!value[k].empty()) qualifiers.push_back(shortened(value[k]));
  if (unknown_noted) qualifiers.push_back(unknown);
  std::string out = value[0].empty() ? "none" : shortened(value[0]);
  return qualifiers.empty() ? out : out + " (" + join(qualifiers, ", ") + ")";
}

}  // namespace

const std::vector<ProvenanceFact>& provenance_facts() {
  static const std::vector<ProvenanceFact> facts{
      {"system", {kCampaignSystemKey}, ""},
      {"GPU", {"gpu.model", "gpu.count"}, "count unknown"},
      {"GPU driver", {"gpu.driver"}, ""},
      {"CUDA", {"gpu.cuda"}, ""},
      {"NCCL", {"nccl.version"}, ""},
      {"container image", {"container.image", "container.image_id"}, "id unknown"},
      {"container runtime", {"container.runtime", "container.runtime_version"}, "version unknown"},
      {"kernel", {"kernel"}, ""},
      {"modules", {"job.modules"}, "", false, one_line},
      {"workload commit", {kCampaignCommitKey, kCampaignDirtyKey}, ""},
      {"nodes", {"slurm.node_list", "hostname"}, "", true},
  };
  return facts;
}

std::vector<store::AttemptValue> campaign_fact_values(const store::CampaignRecord& campaign) {
  std::vector<store::AttemptValue> out;
  if (!campaign.system.empty()) out.push_back({0, 0, kCampaignSystemKey, campaign.system});
  if (campaign.git_commit.empty()) return out;
  out.push_back({0, 0, kCampaignCommitKey, campaign.git_commit});
  if (campaign.git_dirty) out.push_back({0, 0, kCampaignDirtyKey, *campaign.git_dirty ? "dirty" : "clean"});
  return out;
}

std::vector<std::string> provenance_fact_keys() {
  std::vector<std::string> keys;
  for (const auto& fact : provenance_facts()) keys.insert(keys.end(), fact.keys.begin(), fact.keys.end());
  return keys;
}

std::vector<ProvenanceChange> provenance_changes(const std::vector<store::AttemptValue>& baseline,
                                                 const std::vector<store::AttemptValue>& candidate) {
  std::vector<ProvenanceChange> out;
  for (const auto& fact : provenance_facts()) {
    ProvenanceChange change{fact.label, fact.keys, distinct_values(fact, baseline), distinct_values(fact, candidate),
                            fact.unknown, fact.alternatives};
    if (!matched(change.baseline, change.candidate) || !matched(change.candidate, change.baseline))
      out.push_back(std::move(change));
  }
  return out;
}

namespace {

std::string values_text(const std::vector<FactValue>& values, const std::vector<FactValue>& others,
                        const std::string& unknown, bool alternatives) {
  if (values.empty()) return "none";
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < values.size() && i < kShownValues; ++i)
    texts.push_back(value_text(values[i], !unknown.empty() && subsumed_in(values[i], values, others), unknown, alternatives));
  std::string out = join(texts, ", ");
  if (values.size() > kShownValues) out += fmt::format(" and {} more", values.size() - kShownValues);
  return out;
}

}  // namespace

std::string fact_values_text(const std::vector<FactValue>& values, const std::vector<FactValue>& others,
                             const std::string& unknown) {
  return values_text(values, others, unknown, false);
}

std::string change_text(const ProvenanceChange& change) {
  return change.label + " " + values_text(change.baseline, change.candidate, change.unknown, change.alternatives) +
         " -> " + values_text(change.candidate, change.baseline, change.unknown, change.alternatives);
}

}  // namespace sweep::report
