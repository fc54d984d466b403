// The hardware line of a report's provenance: one fact per key some run recorded, a value all runs
// share written alone, differing values each with their run counts, and a campaign without GPUs saying
// so rather than leaving the reader to guess.
#include <catch2/catch.hpp>

#include "report/hardware.h"

using namespace sweep::report;
using sweep::store::ProvenanceCount;

TEST_CASE("hardware facts: a value every run shares stands alone, in the keys' order") {
  const std::vector<ProvenanceCount> counts{{"nccl.version", "2.28.9", 4}, {"gpu.model", "NVIDIA H200", 4},
                                            {"cpu_model", "AMD EPYC", 4}, {"gpu.count", "8", 4}};
  const auto facts = hardware_facts(counts, 4);
  REQUIRE(facts.size() == 4);
  CHECK(facts[0].label == "CPU");
  CHECK(facts[0].text == "AMD EPYC");
  CHECK(facts[1].label == "GPU");
  CHECK(facts[1].text == "NVIDIA H200");
  CHECK(facts[2].label == "GPUs on the node");
  CHECK(facts[3].label == "NCCL");
  CHECK(facts[3].text == "2.28.9");
}

TEST_CASE("hardware facts: differing values and runs without one are counted") {
  const std::vector<ProvenanceCount> counts{{"gpu.model", "NVIDIA A100-SXM4-80GB", 3}, {"gpu.model", "NVIDIA A40", 1},
                                            {"nccl.version", "2.21.5", 1}};
  const auto facts = hardware_facts(counts, 5);
  REQUIRE(facts.size() == 2);
  CHECK(facts[0].text == "NVIDIA A100-SXM4-80GB (3 runs), NVIDIA A40 (1 run), none recorded (1 run)");
  CHECK(facts[1].text == "2.21.5 (1 run), none recorded (4 runs)");
}

TEST_CASE("hardware facts: a campaign whose runs recorded no GPU says so, after the CPU") {
  const auto facts = hardware_facts({{"cpu_model", "AMD EPYC", 2}, {"nccl.version", "2.28.9", 2}}, 2);
  REQUIRE(facts.size() == 3);
  CHECK(facts[1].label == "GPU");
  CHECK(facts[1].text == "none recorded");
  CHECK(hardware_facts({}, 0).front().text == "none recorded");
}

TEST_CASE("hardware facts: GPU and NCCL lines only where runs asked for GPUs") {
  // No run asked: the node's NCCL, recorded by a run that did not ask, is not shown.
  const auto cpu_only = hardware_facts({{"cpu_model", "AMD EPYC", 3}, {"gpus_requested", "none", 3}}, 3);
  REQUIRE(cpu_only.size() == 2);
  CHECK(cpu_only[1].label == "GPU");
  CHECK(cpu_only[1].text == "none requested");
  // Two of five asked: their facts (counted over those two by the store) are over two runs.
  const auto mixed = hardware_facts({{"cpu_model", "AMD EPYC", 5}, {"gpus_requested", "none", 3},
                                     {"gpus_requested", "resources.gpus=1", 2}, {"gpu.model", "NVIDIA H200", 2},
                                     {"nccl.version", "2.28.9", 1}},
                                    5);
  REQUIRE(mixed.size() == 3);
  CHECK(mixed[0].text == "AMD EPYC");
  CHECK(mixed[1].text == "NVIDIA H200");
  CHECK(mixed[2].label == "NCCL");
  CHECK(mixed[2].text == "2.28.9 (1 run), none recorded (1 run)");
  // Asked, but the node had no nvidia-smi.
  CHECK(hardware_facts({{"gpus_requested", "collbench --backend nccl", 2}}, 2).front().text == "none recorded");
}
