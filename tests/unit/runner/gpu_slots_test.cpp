// runner::GpuSlots and visible_gpus: which GPUs a local campaign may hand out, and never one GPU to two runs.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "runner/gpu_slots.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;
using Ids = std::vector<std::string>;

namespace {

// `nvidia-smi -L` of a machine with an A100 split into MIG devices and one whole GPU
// (github.com/influxdata/telegraf/issues/5812, cut to two GPUs).
const std::string kList = R"(GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-513536b6-7d19-9063-b049-1e69664bb298)
  MIG 1g.20gb     Device  0: (UUID: MIG-ce861fb0-a248-58ce-a9a8-f9adbc22a66a)
GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-d8594bd4-0fc3-8595-e355-7c98138f3b95)
)";

}  // namespace

TEST_CASE("gpu slots: CUDA_VISIBLE_DEVICES given to sweep wins over nvidia-smi") {
  CHECK(visible_gpus("3, 1,,GPU-abc", kList) == Ids{"3", "1", "GPU-abc"});
  CHECK(visible_gpus("0,0,1", "") == Ids{"0", "1"});
  CHECK(visible_gpus("", kList).empty());  // set but empty: no GPU, as CUDA reads it
  CHECK(visible_gpus(std::nullopt, kList) == Ids{"0", "1"});  // MIG devices are not counted again
  CHECK(visible_gpus(std::nullopt, "").empty());  // no nvidia-smi: no GPU
  CHECK(gpu_source("0,1", 2) == "CUDA_VISIBLE_DEVICES=\"0,1\"");
  CHECK(gpu_source(std::nullopt, 1) == "nvidia-smi -L lists 1 GPU");
}

TEST_CASE("gpu slots: runs get disjoint sets, the lowest free first, and wait when too few are free") {
  GpuSlots slots({"0", "1", "2", "3"});
  CHECK(slots.size() == 4);
  const auto a = slots.take(2);
  const auto b = slots.take(2);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == Ids{"0", "1"});
  CHECK(*b == Ids{"2", "3"});
  CHECK(slots.free() == 0);
  CHECK_FALSE(slots.take(1));  // a third run waits
  slots.give_back(*a);
  CHECK(slots.free() == 2);
  CHECK_FALSE(slots.take(3));  // too few: nothing is taken
  CHECK(slots.free() == 2);
  CHECK(slots.take(1) == Ids{"0"});
  CHECK(slots.take(0) == Ids{});
}

TEST_CASE("gpu slots: giving back what is not held is a bug, caught") {
  GpuSlots slots({"0", "1"});
  CHECK_THROWS_AS(slots.give_back({"0"}), Error);
  CHECK_THROWS_AS(slots.give_back({"7"}), Error);
  const auto a = slots.take(1);
  slots.give_back(*a);
  CHECK_THROWS_AS(slots.give_back(*a), Error);
}

TEST_CASE("gpu slots: no GPU is ever held twice over many takes and gives") {
  GpuSlots slots({"0", "1", "2", "3", "4"});
  std::vector<Ids> held;
  for (int step = 0; step < 200; ++step) {
    if (const auto got = slots.take(static_cast<std::size_t>(step % 3) + 1)) held.push_back(*got);
    else {
      slots.give_back(held.front());
      held.erase(held.begin());
    }
    std::multiset<std::string> all;
    for (const Ids& h : held) all.insert(h.begin(), h.end());
    REQUIRE(std::set<std::string>(all.begin(), all.end()).size() == all.size());
    REQUIRE(slots.free() + all.size() == 5);
  }
}

TEST_CASE("gpu slots: a run's CUDA_VISIBLE_DEVICES") {
  CHECK(cuda_visible_devices({"2", "3"}) == "2,3");
  CHECK(cuda_visible_devices({}).empty());
}
