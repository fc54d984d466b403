// Real ranks, real backends: every collective's result is checked exactly by collbench itself (exit 0
// and "#wrong" 0), and the reported bandwidths follow the nccl-tests formulas.
#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "workloads/collbench_harness.h"

using workloads::metric_lines;
using workloads::mpirun_collbench;

namespace {

struct OpCase {
  const char* op;
  const char* dtype;
  const char* redop;
  double factor_numerator;  // busbw/algbw = numerator·(n-1)/n, or 1 when 0
};

// Every collective once, with the dtypes and reductions spread over them.
constexpr std::array<OpCase, 7> kCases{{
    {"allreduce", "fp32", "sum", 2},
    {"allreduce", "bf16", "avg", 2},
    {"allgather", "fp16", "sum", 1},
    {"reducescatter", "int32", "max", 1},
    {"broadcast", "fp64", "sum", 0},
    {"alltoall", "bf16", "sum", 1},
    {"sendrecv", "fp32", "sum", 0},
}};

void check_backend(const std::string& backend, int ranks) {
  for (const OpCase& c : kCases) {
    const std::string inplace = std::string(c.op) == "sendrecv" ? "" : " --inplace";
    const auto r = mpirun_collbench(ranks, "--backend " + backend + " --op " + c.op + " --dtype " + c.dtype +
                                               " --redop " + c.redop + " -b 1000 -e 1200000 -f 33 -w 1 -n 3" + inplace);
    INFO(backend << " " << ranks << " ranks: " << c.op << " " << c.dtype << " " << c.redop << "\nstderr:\n" << r.err << "stdout:\n" << r.out);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("# Out of bounds values : 0 OK"));
    const auto m = metric_lines(r.out);
    REQUIRE(m.at("wrong").size() == 3);  // 1000, 33000, 1089000 bytes
    for (const auto& [index, line] : m.at("wrong")) CHECK(line.at("value") == 0);
    if (!inplace.empty())
      for (const auto& [index, line] : m.at("wrong_inplace")) CHECK(line.at("value") == 0);
    CHECK(m.at("wrong_total").at(0).at("value") == 0);
    const double n = ranks;
    const double factor = c.factor_numerator == 0 ? 1.0 : c.factor_numerator * (n - 1) / n;
    const double algbw = m.at("algbw").at(2).at("value"), busbw = m.at("busbw").at(2).at("value");
    CHECK(algbw > 0);
    CHECK(busbw == Approx(algbw * factor));
    const double bytes = m.at("size_bytes").at(2).at("value"), time_us = m.at("time_us").at(2).at("value");
    CHECK(algbw == Approx(bytes / (time_us * 1e-6) / 1e9));
  }
}

}  // namespace

TEST_CASE("mpi backend: every collective is exact on 2 ranks") { check_backend("mpi", 2); }
TEST_CASE("mpi backend: every collective is exact on 4 ranks") { check_backend("mpi", 4); }
TEST_CASE("gloo backend: every collective is exact on 2 ranks") { check_backend("gloo", 2); }
TEST_CASE("gloo backend: every collective is exact on 4 ranks") { check_backend("gloo", 4); }

TEST_CASE("gloo ranks started torchrun-style meet through the rendezvous directory") {
  e2e::Sandbox box;
  const std::string cmd = std::string(COLLBENCH_BIN) + " --backend gloo -b 4M --dtype fp16 -n 2";
  const auto r = e2e::shell("cd " + box.dir().string() + " && export WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29511; " +
                            "RANK=1 " + cmd + " > r1.out 2>&1 & RANK=2 " + cmd + " > r2.out 2>&1 & RANK=0 " + cmd +
                            "; s=$?; wait %1 && wait %2 && exit $s");
  INFO("stderr:\n" << r.err << "stdout:\n" << r.out);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("ranks 3 (from torchrun)"));
  CHECK_THAT(r.out, Catch::Contains("# Out of bounds values : 0 OK"));
  CHECK(metric_lines(r.out).at("count").at(0).at("value") == 2097152);
  // Rank 0 removes the rendezvous files once everyone is connected.
  CHECK_FALSE(std::filesystem::exists(box.path(".comm-rendezvous/master-127.0.0.1-29511")));
}

TEST_CASE("the header names the version, backend library, hosts, rank placement and the clock") {
  const auto r = mpirun_collbench(2, "--backend mpi -b 1K -n 1");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("# collbench "));
  CHECK_THAT(r.out, Catch::Contains("(output format 1)"));
  CHECK_THAT(r.out, Catch::Contains("backend mpi (Open MPI v"));
  CHECK_THAT(r.out, Catch::Contains("#  Rank   1 on "));
  CHECK_THAT(r.out, Catch::Contains("# time: per iteration, mean of the timed iterations (host clock); "
                                    "algbw and busbw use the avg over ranks"));
}
