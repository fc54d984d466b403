#include "report/provenance_changes.h"

#include <map>
#include <set>

#include "util/strings.h"

namespace sweep::report {
namespace {

constexpr std::string_view kShaPrefix = "sha256:";
constexpr std::size_t kShortHex = 12;

/// The distinct values of `fact` over the runs of `values` that recorded any of its keys.
std::vector<FactValue> distinct_values(const ProvenanceFact& fact, const std::vector<store::AttemptValue>& values) {
  std::map<std::int64_t, FactValue> by_run;
  for (const auto& v : values)
    for (std::size_t k = 0; k < fact.keys.size(); ++k)
      if (v.key == fact.keys[k] && !v.value.empty()) {
        auto& run = by_run[v.run_id];
        run.resize(fact.keys.size());
        run[k] = v.value;
      }
  std::set<FactValue> distinct;
  for (auto& [run, value] : by_run) distinct.insert(std::move(value));
  return {distinct.begin(), distinct.end()};
}

std::string shortened(const std::string& value) {
  if (value.size() > kShaPrefix.size() + kShortHex && value.starts_with(kShaPrefix))
    return value.substr(0, kShaPrefix.size() + kShortHex) + "\u2026";
  return value;
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

std::string value_text(const FactValue& value, bool unknown_noted, const std::string& unknown) {
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
      {"container image", {"container.image", "container.image_id"}, "id unknown"},
      {"container runtime", {"container.runtime", "container.runtime_version"}, "version unknown"},
  };
  return facts;
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
                            fact.unknown};
    if (!matched(change.baseline, change.candidate) || !matched(change.candidate, change.baseline))
      out.push_back(std::move(change));
  }
  return out;
}

std::string fact_values_text(const std::vector<FactValue>& values, const std::vector<FactValue>& others,
                             const std::string& unknown) {
  if (values.empty()) return "none";
  std::vector<std::string> texts;
  for (const auto& v : values) texts.push_back(value_text(v, !unknown.empty() && subsumed_in(v, values, others), unknown));
  return join(texts, ", ");
}

std::string change_text(const ProvenanceChange& change) {
  return change.label + " " + fact_values_text(change.baseline, change.candidate, change.unknown) + " -> " +
         fact_values_text(change.candidate, change.baseline, change.unknown);
}

}  // namespace sweep::report
