#pragma once
// What changed between two campaigns besides their metrics (docs/forecasts.md, "What changed";
// docs/containers.md, "What sweep compares"): a table of provenance facts, each a label and the provenance
// keys it reads, compared by the distinct values of the baseline's runs and of the candidate's. `sweep
// compare` and `sweep nightly` print a changed fact next to their verdicts: "changed: NCCL 2.19.3 ->
// 2.21.5", "changed: container image /img/a (sha256:12ab…) -> /img/b (sha256:34cd…)". Pure.
//
// The campaign-level facts (the system, the workload's git commit) are read as the values of one
// pseudo-run (run id 0, which no run has) under the keys kCampaignSystemKey, kCampaignCommitKey and
// kCampaignDirtyKey: campaign_fact_values() makes them from a campaign's record.
#include <string>
#include <vector>

#include "store/records.h"

namespace sweep::report {

/// One fact: its label and the keys it reads; the first key names the value, the others qualify it
/// (shown in parentheses). Adding a fact is one row of provenance_facts().
///
/// A run that recorded the first key but not a qualifier (an image id sweep-image-id could not give)
/// is not a different value from a run with the same first value and the qualifier: the sides differ
/// where a value of one is not the other's, does not lack only qualifiers one of the other's has, and
/// has not only qualifiers one of the other's lacks. In a change's text, such a value is noted `unknown` ("/img (id unknown)") where a value with
/// the same first value has the qualifier; otherwise it is shown by what it has ("/img").
///
/// A fact of `alternatives` reads its keys as alternatives instead: a run's value is that of the first
/// key it recorded (the nodes: slurm.node_list, else hostname), the others left "".
/// `normalize`, where set, rewrites each value before it is compared (job.modules' one module a line
/// becomes one line, the modules separated by spaces).
struct ProvenanceFact {
  std::string label;
  std::vector<std::string> keys;
  std::string unknown;  // the note for a qualifier missing beside a value that has it: "id unknown"
  bool alternatives = false;
  std::string (*normalize)(std::string_view) = nullptr;
};

/// The pseudo-keys of the campaign-level facts (campaigns.system, .git_commit, .git_dirty).
inline constexpr const char* kCampaignSystemKey = "campaign.system";
inline constexpr const char* kCampaignCommitKey = "campaign.git_commit";
inline constexpr const char* kCampaignDirtyKey = "campaign.git_dirty";  // "dirty" or "clean"

/// The campaign-level facts of `campaign` as values of run id 0: its system and git commit where it
/// has them, and git_dirty ("dirty", "clean") where it is known and there is a commit.
std::vector<store::AttemptValue> campaign_fact_values(const store::CampaignRecord& campaign);

/// The facts compared, in the order they are printed.
const std::vector<ProvenanceFact>& provenance_facts();
/// Every key of every fact (what report/campaign_data.h loads for them).
std::vector<std::string> provenance_fact_keys();

/// One run's value of a fact: one string per key of its row, "" where the run recorded none.
using FactValue = std::vector<std::string>;

/// A fact whose distinct values differ between the sides (ProvenanceFact: a value that only lacks a
/// qualifier another value has is not a difference). A side whose runs recorded none of its keys has no
/// values (it reads "none").
struct ProvenanceChange {
  std::string label;
  std::vector<std::string> keys;
  std::vector<FactValue> baseline, candidate;  // distinct, sorted
  std::string unknown;                         // ProvenanceFact::unknown
  bool alternatives = false;                   // ProvenanceFact::alternatives: a value is its one non-empty key's
};

/// The facts that differ, in provenance_facts() order, from the latest attempts' values of each side's
/// runs (`baseline`, `candidate`: store::AttemptValue of any of provenance_fact_keys()).
std::vector<ProvenanceChange> provenance_changes(const std::vector<store::AttemptValue>& baseline,
                                                 const std::vector<store::AttemptValue>& candidate);

/// A value as text: the first key's value, then the others' in parentheses, a "sha256:<64 hex>" cut to
/// its first 12 hex digits and "…", a git commit (40 hex) to its first 12: "/img/a (sha256:12ab34cd56ef…)".
/// Values of one side joined by ", ", past kShownValues the rest counted ("and 3 more"); none: "none". With `unknown`, a value that a value of `values` or `others` subsumes (ProvenanceFact)
/// gets it as a qualifier: "/img (id unknown)".
inline constexpr std::size_t kShownValues = 4;
std::string fact_values_text(const std::vector<FactValue>& values, const std::vector<FactValue>& others = {},
                             const std::string& unknown = "");
/// "container image /img/a (sha256:12ab…) -> /img/b (sha256:34cd…)" (not yet made safe for a sink).
std::string change_text(const ProvenanceChange& change);

}  // namespace sweep::report
