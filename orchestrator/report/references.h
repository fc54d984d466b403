#pragma once
// `sweep check`: a campaign against the expected values of its system (an acceptance test of a
// cluster, as ReFrame's references): a verdict per point and metric, rendered as text, JSON (versioned)
// or JUnit XML (docs/references.md). Pure.
#include <optional>
#include <string>
#include <vector>

#include "report/campaign_data.h"
#include "spec/experiment.h"

namespace sweep::report {

struct ReferenceRow {
  std::string point;   // "batch=8 nodes=2"
  std::string metric, unit;
  double reference = 0;
  std::optional<double> lower, upper;  // relative bounds; absent = open
  std::optional<double> measured;      // the point's mean over its succeeded runs; absent: not measured
  std::size_t n = 0;                   // values behind it
  double deviation = 0;                // (measured - reference) / |reference|
  bool passed = false;
  std::string reason;                  // why it failed; "" when it passed
};

struct ReferenceCheck {
  std::string campaign, system;
  std::vector<ReferenceRow> rows;  // point order, then the references' order
  std::size_t unfinished = 0;      // runs of the campaign pending or running: the means are partial
  std::size_t failed() const;
};

/// For each point and metric, the reference that applies on `system`: among the entries whose `where`
/// holds there, the first naming `system`, else the first with system "*". `references` come in order
/// of precedence (the experiment's, then the site file's). A general (site) entry is left out for a
/// metric no point reports and at a point that lacks a parameter its `where` reads. Error(invalid_experiment)
/// at an experiment's `where` that names no parameter of the point, or any `where` not true or false there; Error(incomparable) when no reference
/// applies to any point ("no references for system ...").
ReferenceCheck check_references(const CampaignData& data, const std::vector<spec::Reference>& references,
                                const std::string& system);

inline constexpr int kReferenceJsonVersion = 1;
std::string references_text(const ReferenceCheck& c);   // aligned columns, then a one-line verdict
std::string references_json(const ReferenceCheck& c);
std::string references_junit(const ReferenceCheck& c);  // a testcase per row; failed rows fail

}  // namespace sweep::report
