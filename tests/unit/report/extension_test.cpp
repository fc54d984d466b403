// report::plan_extension: which candidate points get more runs within --extend-budget.
#include <catch2/catch.hpp>

#include "report/extension.h"

using namespace sweep;
using namespace sweep::report;

namespace {

ComparisonRow row(const char* point_id, const char* metric, stats::Verdict v, std::size_t have, std::size_t needed) {
  ComparisonRow r;
  r.point = point_id;
  r.point_id = point_id;
  r.metric = metric;
  r.result.verdict = v;
  r.result.candidate.n = have;
  r.result.repetitions_needed = needed;
  return r;
}

}  // namespace

TEST_CASE("extension: the largest ask of a point's inconclusive rows, cheapest points first, each whole") {
  CampaignComparison c;
  c.rows = {row("a", "t", stats::Verdict::inconclusive, 3, 20),   // a: 17
            row("b", "t", stats::Verdict::inconclusive, 3, 5),    // b: max(2, 6) = 6
            row("b", "u", stats::Verdict::inconclusive, 3, 9),
            row("c", "t", stats::Verdict::unchanged, 3, 0),       // decided: nothing
            row("d", "t", stats::Verdict::inconclusive, 5, 4)};   // d: its hint is met already: one more
  const Extension e = plan_extension(c, 10);
  const std::vector<std::pair<std::string, int>> expected{{"b", 6}, {"d", 1}};  // in point order
  CHECK(e.more == expected);
  CHECK(e.runs == 7);
  CHECK(e.verdicts == 3);
  CHECK(e.left_out == 1);  // a's 17 does not fit
  CHECK(plan_extension(c, 0).more.empty());
  CHECK(plan_extension(c, 24).runs == 24);
}
