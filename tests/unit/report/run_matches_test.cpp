// Each run's metric match counts in `sweep show` (report/run_matches.h): read from the attempt's
// provenance `matches.<metric>`, shown as text and in show's JSON.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "campaign_fixture.h"
#include "report/campaign_json.h"
#include "report/campaign_view.h"
#include "report/run_matches.h"

using namespace sweep;
using namespace sweep::report;

namespace {

CampaignData two_runs() {
  CampaignData d;
  d.campaign.label = "train";
  d.points.push_back({"p0001", 0, {}});
  fixture::add_run(d, "p0001", 0);
  fixture::add_run(d, "p0001", 1, store::RunState::failed);
  return d;
}

}  // namespace

TEST_CASE("run matches: the counts among an attempt's provenance, by metric name") {
  const store::KeyValues provenance{{"hostname", "n1"},       {"matches.loss", "101"}, {"matches.elapsed", "1"},
                                    {"matches.bad", "x"},     {"matches.neg", "-1"},   {"ingest_warnings", "2"},
                                    {"matches.none", "0"}};
  using Counts = std::vector<std::pair<std::string, std::int64_t>>;
  CHECK(matches_in(provenance) == Counts{{"elapsed", 1}, {"loss", 101}, {"none", 0}});
  CHECK(matches_in({{"hostname", "n1"}}).empty());
}

TEST_CASE("run matches: show lists them per run in text, and leaves the section out when there are none") {
  const CampaignData d = two_runs();
  const std::vector<RunMatches> matches{{&d.runs[0], {{"elapsed", 1}, {"loss", 3}}}, {&d.runs[1], {{"loss", 101}}}};
  const std::string text = campaign_detail(d, {}, matches);
  CHECK_THAT(text, Catch::Contains("\nmetric matches per run (values each rule found, before its reduce):\n"
                                   "  p0001 rep 0 attempt 1: elapsed 1, loss 3\n"
                                   "  p0001 rep 1 attempt 1: loss 101\n"));
  CHECK_THAT(campaign_detail(d, {}, {}), !Catch::Contains("metric matches"));
}

TEST_CASE("run matches: show's JSON has them as run_matches, version 4") {
  const CampaignData d = two_runs();
  const std::vector<RunMatches> matches{{&d.runs[1], {{"loss", 101}}}};
  const auto j = nlohmann::json::parse(campaign_detail_json(d, {}, matches));
  CHECK(j["version"] == 6);
  REQUIRE(j["run_matches"].size() == 1);
  CHECK(j["run_matches"][0] ==
        nlohmann::json::parse(R"({"point_id": "p0001", "repetition": 1, "attempt": 1, "matches": {"loss": 101}})"));
  CHECK(nlohmann::json::parse(campaign_detail_json(d, {}, {}))["run_matches"] == nlohmann::json::array());
  CHECK(nlohmann::json::parse(campaign_detail_json(d, {}, {}))["changes"] == nlohmann::json::array());
  const std::vector<store::ChangeRecord> changes{{1, 1, "2026-11-26T00:00:00Z", "me", "h", "reparse", "w", "abc"}};
  CHECK(nlohmann::json::parse(campaign_detail_json(d, {}, {}, changes))["changes"][0] ==
        nlohmann::json::parse(R"({"at": "2026-11-26T00:00:00Z", "user": "me", "host": "h", "kind": "reparse", "what": "w",
                                  "rules_hash": "abc"})"));
}
