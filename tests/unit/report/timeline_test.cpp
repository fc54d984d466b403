// The timeline's data from telemetry files in format 1 (as the sampler writes them): downsampling,
// power and CPU cores from counter differences, the end and the cut-short mark.
#include "report/timeline.h"

#include <catch2/catch.hpp>

#include <fmt/core.h>

#include "report/timeline_svg.h"
#include "telemetry/log.h"

using namespace sweep;
using namespace sweep::report;

namespace {

const Series& find(const Timeline& t, const std::string& label) {
  for (const auto& s : t.series)
    if (s.label == label) return s;
  FAIL("no series " << label);
  throw;
}

// node n1: one GPU drawing 100 W, then 300 W; RAPL package 0 at 50 W then 20 W; the workload uses 2 cores,
// then 1; its RSS grows.
const char* kNode =
    "sweep-telemetry format=1\nnode n1\ninterval_ms 1000\nepoch_s 1795000000\n"
    "source proc ok\nsource rapl ok\nsource nvml ok stand-in\n"
    "gpu_device 0 GPU-aa Stand-in GPU\nrapl_zone 0 package package-0\n"
    "proc 0 0 100 1\nrapl 0 0 0\ngpu 0 0 0 100 10 5 1000 1500 40 0x0\n"
    "proc 1 2 200 2\nrapl 1 0 50\ngpu 1 0 100 300 90 50 3000 1500 50 0x0\n"
    "proc 2 3 150 2\nrapl 2 0 70\ngpu 2 0 400 - 80 40 2500 1500 55 0x4\n";

}  // namespace

TEST_CASE("timeline: power from energy differences, cores from CPU-seconds differences, per node and GPU") {
  const auto log = telemetry::parse_telemetry(std::string(kNode) + "end 2.5\n", "run/telemetry.n1");
  const Timeline t = build_timeline({log});
  CHECK(find(t, "n1 RAPL package-0 power").points == std::vector<SeriesPoint>{{1, 50}, {2, 20}});
  CHECK(find(t, "n1 CPU cores").points == std::vector<SeriesPoint>{{1, 2}, {2, 1}});
  CHECK(find(t, "n1 RSS").points == std::vector<SeriesPoint>{{0, 100}, {1, 200}, {2, 150}});
  // The GPU's sampled power, its sample without power ("-") left out; utilisation and memory as sampled.
  CHECK(find(t, "n1 GPU 0 power").points == std::vector<SeriesPoint>{{0, 100}, {1, 300}});
  CHECK(find(t, "n1 GPU 0 utilisation").panel == Panel::gpu_util);
  CHECK(find(t, "n1 GPU 0 memory").points.back() == SeriesPoint{2, 2500});
  CHECK(find(t, "n1 GPU 0 memory").panel == Panel::gpu_memory);
  CHECK(find(t, "n1 RSS").panel == Panel::rss);  // its own panel: MiB of a host process beside 80 GB GPUs would be a flat line
  REQUIRE(t.ends.size() == 1);
  CHECK(t.ends[0].t == 2.5);
  CHECK_FALSE(t.ends[0].cut_short);
  CHECK(t.t_max == 2.5);
}

TEST_CASE("timeline: a file without end is cut short at its last sample, and a counter that goes back is 0 W") {
  auto cut = telemetry::parse_telemetry(std::string(kNode) + "rapl 3 0 100\n", "run/telemetry.n1");
  Timeline t = build_timeline({cut});
  REQUIRE(t.ends.size() == 1);
  CHECK(t.ends[0].cut_short);
  CHECK(t.ends[0].t == 3);
  CHECK(find(t, "n1 RAPL package-0 power").points.back() == SeriesPoint{3, 30});
  // The parser refuses a cumulative counter that goes back; a log that holds one anyway draws 0 W there.
  cut.rapl.back().energy_j = 10;
  CHECK(find(build_timeline({cut}), "n1 RAPL package-0 power").points.back() == SeriesPoint{3, 0});
  const std::string svg = timeline_svg(t, "p");
  CHECK_THAT(svg, Catch::Contains("n1 cut short"));
  CHECK_THAT(svg, Catch::Contains(">start</text>"));
}

TEST_CASE("timeline: downsampling keeps at most the bound, the peak of each bucket for power, the mean for utilisation") {
  std::vector<SeriesPoint> points;
  for (int i = 0; i < 1000; ++i) points.push_back({i * 0.1, i == 537 ? 1000.0 : 10.0});
  const auto max = downsample(points, 100, Keep::max);
  CHECK(max.size() == 100);
  double peak = 0;
  for (const auto& p : max) peak = std::max(peak, p.v);
  CHECK(peak == 1000);  // the one-sample spike survives
  const auto mean = downsample(points, 100, Keep::mean);
  CHECK(mean.size() == 100);
  CHECK(mean[53].v == Approx((9 * 10.0 + 1000) / 10));  // bucket 53 holds samples 530..539
  CHECK(downsample(points, 2000, Keep::max) == points);  // under the bound: unchanged
  // A timeline's series from a long file are bounded too.
  std::string text = "sweep-telemetry format=1\nnode big\ninterval_ms 10\nepoch_s 0\nsource proc ok\n";
  for (int i = 0; i < 5000; ++i) text += fmt::format("proc {} {} {} 1\n", i * 0.01, i * 0.01, 100 + i % 7);
  const Timeline t = build_timeline({telemetry::parse_telemetry(text, "telemetry.big")});
  for (const auto& s : t.series) CHECK(s.points.size() <= kMaxPoints);
  CHECK(find(t, "big RSS").points.size() == kMaxPoints);
}

TEST_CASE("timeline: series past the bound are counted, not drawn, and text from the file is escaped in the SVG") {
  std::string text = "sweep-telemetry format=1\nnode <b>&n\ninterval_ms 10\nepoch_s 0\nsource nvml ok\n";
  for (int g = 0; g < 20; ++g) text += fmt::format("gpu_device {} GPU-{} x\n", g, g);
  for (int g = 0; g < 20; ++g) text += fmt::format("gpu 0 {} 0 100 50 50 1000 1 1 0x0\n", g);
  const Timeline t = build_timeline({telemetry::parse_telemetry(text, "telemetry.x")});
  CHECK(t.series.size() == kMaxSeries);
  CHECK(t.series_left_out == 60 - kMaxSeries);
  const std::string svg = timeline_svg(t, "<script>");
  CHECK_THAT(svg, Catch::Contains("&lt;b&gt;&amp;n GPU 0 power"));
  CHECK_THAT(svg, !Catch::Contains("<b>"));
  CHECK_THAT(svg, !Catch::Contains("<script>"));
}
