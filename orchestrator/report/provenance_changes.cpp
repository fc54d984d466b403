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

std::string value_text(const FactValue& value) {
  std::vector<std::string> qualifiers;
  for (std::size_t k = 1; k < value.size(); ++k)
    if (!value[k].empty()) qualifiers.push_back(shortened(value[k]));
  std::string out = value[0].empty() ? "none" : shortened(value[0]);
  return qualifiers.empty() ? out : out + " (" + join(qualifiers, ", ") + ")";
}

}  // namespace

const std::vector<ProvenanceFact>& provenance_facts() {
  static const std::vector<ProvenanceFact> facts{
      {"container image", {"container.image", "container.image_id"}},
      {"container runtime", {"container.runtime", "container.runtime_version"}},
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
    ProvenanceChange change{fact.label, fact.keys, distinct_values(fact, baseline), distinct_values(fact, candidate)};
    if (change.baseline != change.candidate) out.push_back(std::move(change));
  }
  return out;
}

std::string fact_values_text(const std::vector<FactValue>& values) {
  if (values.empty()) return "none";
  std::vector<std::string> texts;
  for (const auto& v : values) texts.push_back(value_text(v));
  return join(texts, ", ");
}

std::string change_text(const ProvenanceChange& change) {
  return change.label + " " + fact_values_text(change.baseline) + " -> " + fact_values_text(change.candidate);
}

}  // namespace sweep::report
