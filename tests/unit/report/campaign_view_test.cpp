// sweep ls's table (report/campaign_view.h): one line per campaign, whatever its stored text holds.
#include "report/campaign_view.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace sweep;

TEST_CASE("sweep ls: a line break in a label from a database someone sent stays in its cell and forges no row") {
  std::vector<report::CampaignSummary> rows(2);
  rows[0].campaign.label = "mine";
  rows[0].campaign.experiment = "e";
  rows[0].campaign.started_at = "2026-01-01T00:00:00Z";
  rows[1].campaign.label = "x\nforged  e  2026-01-01T00:00:00Z  0  99  0  0";
  rows[1].campaign.experiment = "e\x1b[2J";
  rows[1].campaign.started_at = "2026-01-02T00:00:00Z";
  const std::string list = report::campaign_list(rows);
  CHECK(std::count(list.begin(), list.end(), '\n') == 3);  // the header and one line per campaign
  CHECK(list.find('\x1b') == std::string::npos);
  CHECK_THAT(list, Catch::Contains("x\\x0aforged") && Catch::Contains("e\\x1b[2J"));
}
