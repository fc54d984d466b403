// report::default_figures: what a report without declared figures draws.
#include <catch2/catch.hpp>

#include "campaign_fixture.h"
#include "report/presets.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// One point per combination of the values, each with one run reporting `t` and `u`.
CampaignData campaign(const std::vector<std::pair<std::string, std::vector<std::string>>>& axes, const char* type) {
  CampaignData d;
  std::vector<std::vector<store::ParamRecord>> points{{}};
  for (const auto& [name, values] : axes) {
    std::vector<std::vector<store::ParamRecord>> next;
    for (const auto& p : points)
      for (const auto& v : values) {
        auto q = p;
        q.push_back({name, v, name == "kind" ? "string" : type, false});
        next.push_back(q);
      }
    points = next;
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string id = "p" + std::to_string(i);
    d.points.push_back({id, static_cast<std::int64_t>(i), points[i]});
    const auto r = fixture::add_run(d, id, 0);
    fixture::add_value(d, r, "t", 1.0 + static_cast<double>(i));
    fixture::add_value(d, r, "u", 2.0);
  }
  return d;
}

}  // namespace

TEST_CASE("default figures: one per metric against the numeric parameter, a line per other combination") {
  const auto figures = default_figures(point_results(campaign({{"n", {"10", "100"}}, {"kind", {"a", "b"}}}, "int")));
  REQUIRE(figures.size() == 2);
  CHECK(figures[0].name == "default-t");
  CHECK(figures[0].x == "n");
  CHECK(figures[0].y == "t");
  CHECK(figures[0].kind == spec::FigureKind::lines);
  CHECK(figures[0].series == std::vector<std::string>{"kind"});
  CHECK_FALSE(figures[0].paper_title);  // "t by n" is sweep's own: the paper version has no title
  CHECK_FALSE(figures[0].log_x);  // 10x
  CHECK(default_figures(point_results(campaign({{"n", {"8", "1024"}}}, "int")))[0].log_x);  // 128x
}

TEST_CASE("default figures: bars without a numeric parameter, none without variation or with too many lines") {
  const auto bars = default_figures(point_results(campaign({{"kind", {"a", "b"}}}, "string")));
  REQUIRE(bars.size() == 2);
  CHECK(bars[0].kind == spec::FigureKind::bars);
  CHECK(bars[0].x == "kind");
  CHECK(default_figures(point_results(campaign({{"n", {"1"}}}, "int"))).empty());
  std::vector<std::string> thirteen;
  for (int i = 0; i < 13; ++i) thirteen.push_back(std::to_string(i));
  CHECK(default_figures(point_results(campaign({{"n", {"1", "2"}}, {"m", thirteen}}, "int"))).empty());
  CHECK(default_figures(point_results(campaign({{"n", {"1", "2"}}, {"m", {"1", "2", "3"}}}, "int"))).size() == 2);
}
