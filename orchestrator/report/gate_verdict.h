#pragma once
// What a gate (`sweep nightly`) said of the campaign a report is of: the verdict, the baseline it was
// judged against, the counts per verdict and the rows that need attention (missing and regressed
// first). A report that carries one opens with it in every format, so the artefact a CI user clicks
// says what failed. Pure.
#include <string>
#include <vector>

#include "report/comparison_view.h"

namespace sweep::report {

struct GateVerdict {
  std::string outcome;           // "REGRESSED", "passed", "FAILED", "COULD NOT COMPARE", ...
  bool failed = false;           // the gate's exit code is not 0
  std::string baseline;          // the pin's name; "" when there was none to judge against
  std::string baseline_campaign; // the pinned campaign's label
  std::string baseline_date;     // when it was pinned (ISO-8601)
  std::string detail;            // "0 missing, 1 regressed, ..." or why nothing was compared
  std::vector<std::string> rows; // "n=1 speed: missing: its 3 runs failed: ...", missing, regressed, inconclusive
};

/// The rows of `c` worth attention, in that order: missing, regressed, inconclusive, then the provenance
/// facts that changed ("changed: container image ... -> ...").
std::vector<std::string> attention_rows(const CampaignComparison& c);

std::string verdict_markdown(const GateVerdict& v);  // a "## Verdict" section
std::string verdict_html(const GateVerdict& v);      // a <section id="verdict">, escaped
std::string verdict_json(const GateVerdict& v);      // an object, for report.json's "verdict"

}  // namespace sweep::report
