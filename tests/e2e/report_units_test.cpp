// `sweep report` through the CLI: declared columns in another unit and scale in every format
// (docs/reports.md, "Units and scale").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

std::string without_cr(std::string text) {
  std::erase(text, '\r');
  return text;
}

// time_us = 1000·n + 100·rep microseconds, bw = 10·n + rep GB/s, over 3 repetitions.
const char* kUnits = R"yaml(name: units
matrix:
  n: [1, 2]
repetitions: 3
workload:
  command: 'echo "time_us=$(( 1000 * {{n}} + 100 * {{repetition}} )) bw=$(( 10 * {{n}} + {{repetition}} ))"'
metrics:
  - {name: time_us, unit: us, better: lower, regex: 'time_us=(?<value>[0-9.]+)'}
  - {name: bw, unit: GB/s, better: higher, regex: 'bw=(?<value>[0-9.]+)'}
report:
  tables:
    - name: converted
      spread: sd
      columns:
        - {param: n}
        - {metric: time_us, unit: ms}
        - {metric: bw, unit: Gb/s}
        - {metric: bw, scale: 2, label: Twice bw (GB/s)}
)yaml";

}  // namespace

TEST_CASE("declared columns convert units and scale in Markdown, CSV, LaTeX, HTML and report.json") {
  Sandbox box;
  box.write("units.yaml", kUnits);
  REQUIRE(box.sweep({"run", "units.yaml", "--label", "u"}).exit_code == 0);
  const auto r = box.sweep({"report", "u", "--no-figures"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // n = 2: 2000, 2100, 2200 us -> 2.1 ± 0.1 ms; 20, 21, 22 GB/s -> 168 ± 8 Gb/s; twice: 42 ± 2 GB/s; shown by
  // the rule (sd 0.1 and 2: two digits; 8: one) as 2.10 ± 0.10, 168 ± 8, 42.0 ± 2.0.
  const std::string md = read_file(box.path("reports/u/report.md"));
  CHECK_THAT(md, Catch::Contains("| n | time_us (ms) | bw (Gb/s) | Twice bw (GB/s) |") &&
                     Catch::Contains("| 2 | 2.10 ± 0.10 (3) | 168 ± 8 (3) | 42.0 ± 2.0 (3) |"));
  const std::string csv = without_cr(read_file(box.path("reports/u/report.converted.csv")));
  CHECK_THAT(csv, Catch::StartsWith("n,time_us (ms) mean,time_us (ms) sd,time_us (ms) n,bw (Gb/s) mean,bw (Gb/s) sd,") &&
                      Catch::Contains(",168,8,3,42,2,3,2.10,0.10,168,8,42.0,2.0\n"));
  CHECK_THAT(read_file(box.path("reports/u/report.tex")), Catch::Contains("2 & $2$ & $.10$ & ${\\pm}\\,0$ & $.10$ & $168$ &  & ${\\pm}\\,8$ &  & $42$ & $.0$ & ${\\pm}\\,2$ & $.0$ \\\\"));
  CHECK_THAT(read_file(box.path("reports/u/report.html")), Catch::Contains("<th>bw (Gb/s)</th>") &&
                                                              Catch::Contains("168 ± 8"));
  const auto j = nlohmann::json::parse(read_file(box.path("reports/u/report.json")));
  CHECK(j["version"] == 8);
  const auto& table = j["tables"][0];
  CHECK(table["name"] == "converted");
  CHECK(table["columns"][1]["unit"] == "Gb/s");
  CHECK(table["rows"][1]["cells"][1]["mean"].get<double>() == Approx(168));
  CHECK(table["rows"][1]["cells"][1]["sd"].get<double>() == Approx(8));
  CHECK(j["points"][1]["metrics"]["bw"]["mean"].get<double>() == Approx(21));  // the stored values, in GB/s
}

TEST_CASE("a column's unit its metric cannot take is an error at the column, listing the valid units") {
  Sandbox box;
  box.write("units.yaml", kUnits);
  REQUIRE(box.sweep({"run", "units.yaml", "--label", "u"}).exit_code == 0);
  std::string text = kUnits;
  text.replace(text.find("unit: ms}"), 9, "unit: GB}");
  box.write("bad.yaml", text);
  const std::string expected = "bad.yaml:16:35: cannot convert us (time) to GB (bytes); us converts to ns, us, µs, ms, s, min, h";
  // Refused before anything runs, by plan and run (the metric declares its unit: docs/reports.md) ...
  for (const char* verb : {"plan", "run"}) {
    const auto r = box.sweep({verb, "bad.yaml"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains(expected));
  }
  // ... and by report, given the section with --spec.
  const auto r = box.sweep({"report", "u", "--no-figures", "--spec", "bad.yaml"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains(expected));
  CHECK_FALSE(std::filesystem::exists(box.path("reports/u/report.md")));
}
