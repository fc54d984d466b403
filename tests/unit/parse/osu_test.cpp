// The osu parser on real outputs (tests/unit/parse/data/README.md names their sources).
#include "table_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

const std::string kAllreduce = "osu/osu_allreduce.txt";     // v7.5, 27 rows from line 6
const std::string kAllreduceF = "osu/osu_allreduce_f.txt";  // v7.0 with -f, 19 rows from line 4

}  // namespace

TEST_CASE("osu: osu_allreduce, size and average latency") {
  const Extraction e = parse_with("osu", data_file(kAllreduce));
  CHECK(e.warnings.empty());  // the launcher's "SET UCX_NET_DEVICES" line and the title are not rows
  REQUIRE(values_of(e, "size_bytes").size() == 27);
  CHECK(values_of(e, "latency_us").size() == 27);
  CHECK(value_at(e, "size_bytes", 0) == 4);
  CHECK(value_at(e, "latency_us", 0) == 11.69);
  CHECK(value_at(e, "size_bytes", 14) == 65536);  // "65536                 160.17"
  CHECK(value_at(e, "latency_us", 14) == 160.17);
  CHECK(value_at(e, "size_bytes", 26) == 268435456);
  CHECK(value_at(e, "latency_us", 26) == 496306.98);
  const Observation latency = of(e, "latency_us").at(0);
  CHECK((latency.unit == "us" && latency.better == "lower"));
  const Observation size = of(e, "size_bytes").at(0);
  CHECK((size.unit == "B" && size.better.empty()));
  CHECK(e.observations.size() == 27 * 2);
}

TEST_CASE("osu: osu_allreduce -f, every column") {
  const Extraction e = parse_with("osu", data_file(kAllreduceF));
  CHECK(e.warnings.empty());
  REQUIRE(values_of(e, "size_bytes").size() == 19);
  // row 14: "65536                 657.62            632.99            678.77         100"
  CHECK(value_at(e, "size_bytes", 14) == 65536);
  CHECK(value_at(e, "latency_us", 14) == 657.62);
  CHECK(value_at(e, "latency_min_us", 14) == 632.99);
  CHECK(value_at(e, "latency_max_us", 14) == 678.77);
  CHECK(value_at(e, "iterations", 14) == 100);
  CHECK(value_at(e, "iterations", 0) == 1000);
  const Observation min = of(e, "latency_min_us").at(0), max = of(e, "latency_max_us").at(0);
  CHECK((min.unit == "us" && min.better == "lower" && max.unit == "us" && max.better == "lower"));
  CHECK(e.observations.size() == 19 * 5);
}

TEST_CASE("osu: point-to-point osu_latency and osu_bw, and osu_alltoall") {
  Extraction e = parse_with("osu", data_file("osu/osu_latency.txt"));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "size_bytes") == std::vector<double>{1});
  CHECK(values_of(e, "latency_us") == std::vector<double>{1.67});
  e = parse_with("osu", data_file("osu/osu_bw.txt"));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "size_bytes") == std::vector<double>{268435456});
  CHECK(values_of(e, "bandwidth_MBps") == std::vector<double>{12254.16});
  const Observation bw = of(e, "bandwidth_MBps").at(0);
  CHECK((bw.unit == "MB/s" && bw.better == "higher"));
  e = parse_with("osu", data_file("osu/osu_alltoall.txt"));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "latency_us").size() == 27);
  CHECK(value_at(e, "latency_us", 26) == 747888.64);
}

TEST_CASE("osu: the older point-to-point header Latency (us) maps to latency_us") {
  std::vector<std::string> lines = lines_of(data_file("osu/osu_latency.txt"));
  lines[4] = "# Size          Latency (us)";  // as osu_latency printed it before 7.x
  const Extraction e = parse_with("osu", joined(lines));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "latency_us") == std::vector<double>{1.67});
}

TEST_CASE("osu: unknown columns (7.x tail latencies) are warned about once per header, not per row") {
  std::vector<std::string> lines = lines_of(data_file(kAllreduceF));
  lines[2] += "   P50 Tail Lat(us)  P99 Tail Lat(us)";
  for (std::size_t i = 3; i < lines.size(); ++i) lines[i] += "             1.00              2.00";
  const Extraction e = parse_with("osu", joined(lines));
  CHECK(e.warnings ==
        std::vector<std::string>{
            "stdout:3: osu: unknown column \"P50 Tail Lat(us)\" in the table header; its values are ignored",
            "stdout:3: osu: unknown column \"P99 Tail Lat(us)\" in the table header; its values are ignored"});
  CHECK(values_of(e, "latency_us") == values_of(parse_with("osu", data_file(kAllreduceF)), "latency_us"));
}

TEST_CASE("osu: several benchmarks in one output keep counting rows") {
  const Extraction e = parse_with("osu", data_file(kAllreduce) + data_file("osu/osu_bw.txt"));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "size_bytes").size() == 28);
  CHECK(value_at(e, "bandwidth_MBps", 27) == 12254.16);
}

TEST_CASE("osu: tagged output and the lowest rank") {
  const std::string text = data_file(kAllreduceF);
  std::string rank0, rank1;
  for (const std::string& line : lines_of(text)) {
    rank1 += "1: " + line + "\n";
    rank0 += "0: " + line + "\n";
  }
  const Extraction plain = parse_with("osu", text);
  const Extraction e = parse_with("osu", rank1 + rank0);
  CHECK(e.warnings.empty());
  CHECK(values(e) == values(plain));
  CHECK(indexes(e) == indexes(plain));
}
