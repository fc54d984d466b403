#include <catch2/catch.hpp>

#include "collbench/sizes.h"

using namespace sweep::collbench;
using sweep::comm::Collective;
using sweep::comm::DType;

TEST_CASE("byte counts take binary suffixes like nccl-tests") {
  CHECK(parse_bytes("1024") == 1024u);
  CHECK(parse_bytes("64K") == 65536u);
  CHECK(parse_bytes("64M") == 64u << 20);
  CHECK(parse_bytes("8G") == 8ull << 30);
  CHECK(parse_bytes("64MiB") == 64u << 20);
  CHECK(parse_bytes("1.5K") == 1536u);
  CHECK_FALSE(parse_bytes("64Q"));
  CHECK_FALSE(parse_bytes("-1"));
  CHECK_FALSE(parse_bytes("0.3"));   // not a whole number of bytes
  CHECK_FALSE(parse_bytes("1e30"));  // overflows 64 bits
  CHECK(parse_count("700M") == 700000000u);
  CHECK(parse_count("1.5B") == 1500000000u);
  CHECK(format_bytes(1536) == "1.5 KiB");
}

TEST_CASE("shapes follow nccl-tests: per-rank counts for gather, scatter and all-to-all") {
  const auto ar = shape_for(Collective::allreduce, 1000, DType::fp32, 4);
  CHECK(ar.count == 250);
  CHECK(ar.bytes == 1000);
  const auto ag = shape_for(Collective::allgather, 1000, DType::fp32, 4);
  CHECK(ag.count == 62);  // 1000 / (4 bytes * 4 ranks), rounded down
  CHECK(ag.in_elems == 62);
  CHECK(ag.out_elems == 248);
  CHECK(ag.bytes == 992);
  const auto rs = shape_for(Collective::reducescatter, 1 << 20, DType::bf16, 2);
  CHECK(rs.count == 262144);
  CHECK(rs.in_elems == 524288);
  CHECK(rs.out_elems == 262144);
  CHECK(shape_for(Collective::alltoall, 64, DType::fp64, 2).out_elems == 8);
  CHECK(shape_for(Collective::sendrecv, 3, DType::fp32, 2).count == 0);
}

TEST_CASE("bus bandwidth factors are those of nccl-tests") {
  CHECK(bus_factor(Collective::allreduce, 2) == 1.0);
  CHECK(bus_factor(Collective::allreduce, 8) == Approx(1.75));
  CHECK(bus_factor(Collective::allgather, 4) == Approx(0.75));
  CHECK(bus_factor(Collective::reducescatter, 4) == Approx(0.75));
  CHECK(bus_factor(Collective::alltoall, 8) == Approx(0.875));
  CHECK(bus_factor(Collective::broadcast, 8) == 1.0);
  CHECK(bus_factor(Collective::sendrecv, 8) == 1.0);
}

TEST_CASE("size steps multiply up to the maximum") {
  CHECK(size_steps(8, 64, 2) == std::vector<std::uint64_t>{8, 16, 32, 64});
  CHECK(size_steps(8, 100, 4) == std::vector<std::uint64_t>{8, 32});
  CHECK(size_steps(1ull << 33, 1ull << 33, 2) == std::vector<std::uint64_t>{1ull << 33});  // 8 GiB is allowed
  CHECK_THROWS_WITH(size_steps(64, 8, 2), "--min-bytes 64 is larger than --max-bytes 8");
  CHECK_THROWS_WITH(size_steps(8, 64, 1), "--factor must be at least 2, got 1");
}
