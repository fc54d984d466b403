// The report's telemetry section from its timelines: one figure per point with its run said, problem
// lines escaped under it, what was left out counted; nothing when no point has telemetry.
#include "report/timelines.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace sweep::report;

namespace {

Timelines two_points() {
  Timeline drawn;
  drawn.series.push_back({"n1 RSS", Panel::rss, {{0, 1}, {1, 2}}});
  drawn.ends.push_back({"n1", 1, false});
  drawn.t_max = 1;
  drawn.series_left_out = 3;
  Timelines t;
  t.points.push_back({"model=<i>x</i>", "p1", 7, 0, drawn, {}, {"telemetry.n1"}});
  t.points.push_back({"model=y", "p2", 9, 1, std::nullopt, {"run/telemetry.a:3:8: expected CPU seconds, got \"<b>\""}, {"telemetry.a"}});
  t.points_left_out = 2;
  return t;
}

}  // namespace

TEST_CASE("telemetry section: a figure per point with its run, problems escaped, what was left out said") {
  const std::string html = timelines_html(two_points());
  CHECK_THAT(html, Catch::Contains("<h2 id=\"telemetry\">Telemetry</h2>"));
  CHECK_THAT(html, Catch::Contains("<img alt=\"timeline of model=&lt;i&gt;x&lt;/i&gt;\" src=\"data:image/svg+xml;base64,"));
  CHECK_THAT(html, Catch::Contains("model=&lt;i&gt;x&lt;/i&gt;: run 7 (repetition 0), the point's first succeeded run with telemetry "
                                   "(3 series past the first 48 are not drawn)"));
  CHECK_THAT(html, Catch::Contains("<p class=\"error\">run/telemetry.a:3:8: expected CPU seconds, got &quot;&lt;b&gt;&quot;</p>"));
  CHECK_THAT(html, Catch::Contains("run 9 (repetition 1), the point's first succeeded run with telemetry — nothing could be read"));
  CHECK_THAT(html, Catch::Contains("The timelines of 2 more points are left out (a report draws at most 32)."));
  CHECK(html.find("<i>") == std::string::npos);
  const std::string md = timelines_markdown(two_points());
  CHECK_THAT(md, Catch::Contains("- model=y: run 9 (repetition 1), the point's first succeeded run with telemetry — nothing could be read\n"
                                 "  - run/telemetry.a:3:8: expected CPU seconds, got \"&lt;b&gt;\"\n"));
  CHECK(timelines_html({}).empty());
  CHECK(timelines_markdown({}).empty());
}

TEST_CASE("telemetry in report.json: each drawn point's run, files, nodes read, those cut short and problems") {
  const auto j = nlohmann::json::parse(timelines_json(two_points()));
  REQUIRE(j.size() == 2);
  CHECK(j[0] == nlohmann::json::parse(R"({"point": "p1", "label": "model=<i>x</i>", "run_id": 7, "repetition": 0,
      "files": ["telemetry.n1"], "nodes": ["n1"], "cut_short": [], "problems": [], "series_left_out": 3})"));
  CHECK(j[1]["nodes"] == nlohmann::json::array());  // nothing could be read
  CHECK(j[1]["problems"][0] == "run/telemetry.a:3:8: expected CPU seconds, got \"<b>\"");
  CHECK(timelines_json({}) == "null");  // no point has telemetry: as report.html, no section
}
