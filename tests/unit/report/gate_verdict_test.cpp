// report/gate_verdict.h: the verdict a nightly report opens with, in Markdown, HTML and JSON.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report/gate_verdict.h"

using namespace sweep;
using namespace sweep::report;

TEST_CASE("gate verdict: missing rows first, then regressed, then inconclusive, and every format escapes") {
  CampaignComparison c;
  ComparisonRow slow{"n=1", "p1", "speed", "it/s", "higher", {}};
  slow.result.verdict = stats::Verdict::regressed;
  slow.result.relative = -0.2;
  slow.result.reason = "-20.00% (p = 0.001)";
  ComparisonRow noisy = slow;
  noisy.result.verdict = stats::Verdict::inconclusive;
  noisy.result.reason = "too noisy";
  c.rows = {noisy, slow};
  c.missing = {{"n=2", "speed", "its 3 runs failed: <oom> & more"}};
  const auto rows = attention_rows(c);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == "n=2 speed: missing: its 3 runs failed: <oom> & more");
  CHECK(rows[1] == "n=1 speed: regressed -20.0%: -20.00% (p = 0.001)");
  CHECK(rows[2] == "n=1 speed: inconclusive -20.0%: too noisy");

  const GateVerdict v{"REGRESSED", true, "nightly-x", "nightly-x-2026-01-01", "2026-01-01T02:00:00Z", "1 missing, 1 regressed", rows};
  CHECK(verdict_markdown(v) ==
        "## Verdict: REGRESSED\n\nagainst nightly-x-2026-01-01 (baseline \"nightly-x\", pinned 2026-01-01T02:00:00Z): "
        "1 missing, 1 regressed.\n\n- n=2 speed: missing: its 3 runs failed: &lt;oom&gt; &amp; more\n"
        "- n=1 speed: regressed -20.0%: -20.00% (p = 0.001)\n- n=1 speed: inconclusive -20.0%: too noisy\n\n");
  const std::string html = verdict_html(v);
  CHECK_THAT(html, Catch::StartsWith("<section id=\"verdict\" class=\"failed\"><h2>Verdict: REGRESSED</h2>"));
  CHECK_THAT(html, Catch::Contains("<li>n=2 speed: missing: its 3 runs failed: &lt;oom&gt; &amp; more</li>"));
  const auto j = nlohmann::json::parse(verdict_json(v));
  CHECK(j["outcome"] == "REGRESSED");
  CHECK(j["failed"] == true);
  CHECK(j["baseline_campaign"] == "nightly-x-2026-01-01");
  CHECK(j["rows"].size() == 3);
  // No baseline (a failed night, a first night): the detail alone.
  const GateVerdict failed{"FAILED", true, "", "", "", "6 of 6 runs failed", {}};
  CHECK(verdict_markdown(failed) == "## Verdict: FAILED\n\n6 of 6 runs failed.\n\n");
}
