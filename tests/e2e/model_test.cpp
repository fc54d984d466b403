// `sweep model` on the figures of seed 000, and its interconnect file with its errors.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("sweep model reproduces seed 000's predicted epoch times") {
  Sandbox box;
  const std::vector<std::string> large{"model", "--params", "708M", "--dtype", "bf16", "--dp", "2",
                                       "--single-epoch", "498.37", "--steps", "1108"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = large;
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = box.sweep(args);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  CHECK_THAT(with({"--bandwidth", "600", "--transfers", "2"}), Catch::Contains("= 254.41 s predicted"));
  CHECK_THAT(with({"--bandwidth", "25", "--transfers", "2"}), Catch::Contains("= 374.70 s predicted"));
  const std::string measured = with({"--interconnect", "ib-hdr", "--allreduce-time", "0.12", "--measured", "406.12"});
  // The seed's 382.15 s adds 249.19 (498.37/2 rounded) and 132.96; unrounded it is 382.145.
  CHECK_THAT(measured, Catch::Contains("compute 249.19 s + communication 132.96 s (1108 steps) = 382.14 s predicted"));
  CHECK_THAT(measured, Catch::Contains("measured: 406.12 s, scaling factor 0.614; predicted/measured 0.941"));
  CHECK_THAT(with({"--interconnect", "nvlink3"}), Catch::Contains("NVLink 3 (12 links)"));
  // Energy: the run's joules over its steps, communication attributed by the predicted share 132.96/382.145.
  CHECK_THAT(measured, Catch::Contains("energy: not measured"));
  const std::string energy = with({"--interconnect", "ib-hdr", "--allreduce-time", "0.12", "--energy", "1108000"});
  CHECK_THAT(energy, Catch::Contains("energy: 1000 J per step measured (1.108e+06 J over 1108 steps); communication costs 347.9 J "
                                     "per step (34.8% of it, attributed by the predicted time share"));
  CHECK_THAT(with({"--bandwidth", "25", "--energy", "500", "--energy-steps", "10"}), Catch::Contains("energy: 50 J per step measured"));
}

TEST_CASE("sweep model: the interconnect table, a user's file, and bad input") {
  Sandbox box;
  box.write("links.yaml", "version: 1\ninterconnects:\n  - {name: our-ib, bandwidth: 23.1, latency_us: 1.8, source: collbench}\n");
  const auto listed = box.sweep({"model", "--list-interconnects", "--interconnects", "links.yaml"});
  REQUIRE(listed.exit_code == 0);
  CHECK_THAT(listed.out, Catch::Contains("ib-hdr") && Catch::Contains("our-ib") && Catch::Contains("collbench"));
  box.write("bad.yaml", "version: 1\ninterconnects:\n  - {name: x, bandwidth: -2}\n");
  const auto bad = box.sweep({"model", "--list-interconnects", "--interconnects", "bad.yaml"});
  CHECK(bad.exit_code == 3);
  CHECK_THAT(bad.err, Catch::Contains("bad.yaml:3:") && Catch::Contains("a bandwidth in GB/s above 0"));
  const auto unknown = box.sweep({"model", "--params", "1B", "--interconnect", "ib-xyz", "--single-epoch", "1", "--steps", "1"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("--interconnect \"ib-xyz\" is not in the table"));
  const auto count = box.sweep({"model", "--params", "lots", "--bandwidth", "1", "--single-epoch", "1", "--steps", "1"});
  CHECK(count.exit_code == 2);
  CHECK_THAT(count.err, Catch::Contains("--params \"lots\""));
}
