#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "collbench/output.h"

using namespace sweep::collbench;
using sweep::comm::Backend;
using sweep::comm::Collective;
using sweep::comm::DType;
using sweep::comm::ReduceOp;

namespace {

Row row_of(std::uint64_t bytes, double avg_us, std::optional<std::uint64_t> wrong) {
  Options o;
  Row row{shape_for(Collective::allreduce, bytes, DType::fp32, 4), {}, std::nullopt};
  row.out_of_place = Timing{avg_us / 2, avg_us, avg_us * 2, wrong};
  return row;
}

}  // namespace

TEST_CASE("algbw and busbw follow from size and time, with the headline choice") {
  Options o;
  const Row row = row_of(1 << 30, 1e6, 0);  // 1 GiB in one second
  CHECK(algbw_gbps(row.shape.bytes, headline_us(o, row.out_of_place)) == Approx(1.073741824));
  o.headline = Headline::max;
  CHECK(headline_us(o, row.out_of_place) == 2e6);
  const std::string lines = metric_lines(o, 4, 3, row);
  // busbw = algbw * 2(n-1)/n = 0.536870912 * 1.5 with the max time of 2 s
  const std::string busbw = R"({"v": 1, "metric": "busbw", "value": )";
  const auto at = lines.find(busbw);
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(lines.substr(at + busbw.size())) == Approx(0.805306368));
  CHECK_THAT(lines.substr(at), Catch::Contains(R"("index": 3, "unit": "GB/s", "better": "higher")"));
  CHECK_THAT(lines, Catch::Contains(R"("metric": "wrong", "value": 0, "index": 3)"));
  CHECK_THAT(lines, Catch::Contains(R"("tags": {"op": "allreduce", "dtype": "fp32", "size_bytes": 1073741824})"));
}

TEST_CASE("the header's time line names the communicator's clock") {
  Options o;
  RunInfo info;
  CHECK_THAT(header(o, info), Catch::Contains("# time: per iteration, mean of the timed iterations (host clock);"));
  info.clock = "CUDA events on nccl's stream";
  CHECK_THAT(header(o, info), Catch::Contains("timed iterations (CUDA events on nccl's stream);"));
}

TEST_CASE("the table row has the nccl-tests columns") {
  Options o;
  const std::string text = table_row(o, 4, row_of(1024, 10, std::nullopt));
  std::istringstream in(text);
  std::string size, count, type, redop, root, time, algbw, busbw, wrong;
  in >> size >> count >> type >> redop >> root >> time >> algbw >> busbw >> wrong;
  CHECK(size == "1024");
  CHECK(count == "256");
  CHECK(type == "float");
  CHECK(redop == "sum");
  CHECK(root == "-1");
  CHECK(time == "10.00");
  CHECK(algbw == "0.10");
  CHECK(busbw == "0.15");
  CHECK(wrong == "N/A");
}

TEST_CASE("the summary gives the peak, the average and the wrong total") {
  Options o;
  const std::vector<Row> rows{row_of(1 << 20, 1000, 0), row_of(1 << 22, 2000, 0), row_of(1 << 24, 10000, 2)};
  const std::string s = summary(o, 4, rows);
  CHECK_THAT(s, Catch::Contains("# Out of bounds values : 2 FAILED"));
  CHECK_THAT(s, Catch::Contains(R"("metric": "busbw_peak_size_bytes", "value": 4194304)"));
  CHECK_THAT(s, Catch::Contains(R"("metric": "wrong_total", "value": 2)"));
}
