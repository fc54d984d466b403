// The analytical model against the hand calculations of seed 000 (GPT-2 Large, 708M parameters in
// bf16, DDP on 2 GPUs, 1,108 steps, single-GPU epoch 498.37 s) and the volume formulas of workloads.md.
#include <catch2/catch.hpp>

#include "model/interconnect.h"
#include "model/dtype.h"
#include "model/predict.h"

using namespace sweep::model;

namespace {
const Workload kLarge{708e6, 2, 2, 1, 1, 1, 0, 0, 0, 0};
}

TEST_CASE("seed 000: the epoch time predicted from peak bandwidths, two transfers per step") {
  // "Estimated Time with NVLink 3.0: 249.19 s + 5.23 s = 254.42 s" (600 GB/s);
  // "Estimated Time with InfiniBand HDR: 249.19 s + 125.6 s = 374.79 s" (25 GB/s). The seed rounds the
  // volume to 3.14 TB first; unrounded, 3.1379 TB gives 125.52 s.
  const Prediction nvlink = predict(kLarge, Link{600e9, 0, 2}, 498.37, 1108);
  CHECK(nvlink.compute_epoch == Approx(249.185));
  CHECK(nvlink.comm_epoch == Approx(5.23).margin(0.005));
  CHECK(nvlink.epoch == Approx(254.42).margin(0.01));
  const Prediction ib = predict(kLarge, Link{25e9, 0, 2}, 498.37, 1108);
  CHECK(ib.comm_epoch == Approx(125.52).margin(0.01));
  CHECK(ib.epoch == Approx(374.79).margin(0.1));
  // "Total data transferred: 2 · 1.416 GB · 1,108 = 3.14 TB": one transfer's volume, twice.
  CHECK(2 * ib.volume.data_parallel * 1108 == Approx(3.14e12).epsilon(0.001));
}

TEST_CASE("seed 000: the epoch time from the measured all-reduce time") {
  // "1,108 · 0.12 s = 132.96 s; Total estimated time: 249.19 s + 132.96 s = 382.15 s".
  const Prediction p = predict(kLarge, Link{25e9, 0, 1}, 498.37, 1108, 0.12);
  CHECK(p.comm_epoch == Approx(132.96));
  CHECK(p.epoch == Approx(382.15).margin(0.005));
  // Measured 406.12 s: a scaling factor of 498.37 / (2 · 406.12) = 0.614 against 0.652 predicted.
  CHECK(p.scaling_factor == Approx(498.37 / (2 * 382.145)));
}

TEST_CASE("volumes per rank and step follow the DP, TP and PP formulas") {
  // 4 ranks of DP on 1e9 fp32 parameters: 2·3/4·4e9 bytes.
  CHECK(volumes(Workload{.parameters = 1e9, .element_bytes = 4, .dp = 4}).data_parallel == Approx(6e9));
  // TP 2 x PP 2, 4 micro-batches of 2 (batch 8), T 1024, C 1600, 48 layers, bf16.
  const Workload w{1.5e9, 2, 1, 2, 2, 4, 8, 1024, 1600, 48};
  const double activation = 2.0 * 1024 * 1600 * 2;
  const Volumes v = volumes(w);
  CHECK(v.data_parallel == 0);
  CHECK(v.tensor_parallel == Approx(24.0 * 4 * 4 * 1.0 * activation));  // (L/p)·m·4·2(t-1)/t·bTCe
  CHECK(v.pipeline == Approx(2.0 * 4 * activation));
  const Prediction p = predict(w, Link{50e9, 1e-6, 1}, 1000, 100);
  CHECK(p.bubble == Approx(0.25));                         // (p-1)/m
  CHECK(p.compute_epoch == Approx(1000.0 / 4 * 1.25));
  CHECK(p.tensor_parallel_seconds == Approx(24.0 * 4 * 4 * (2e-6 + activation / 50e9)));
  // With the vocabulary, the first and last stage also all-reduce the tied embedding's gradients
  // (V·C fp32 between the two: 2α + V·C·4/β).
  Workload tied = w;
  tied.vocab = 50257;
  tied.gradient_bytes = 4;
  CHECK(volumes(tied).pipeline == Approx(2.0 * 4 * activation + 50257.0 * 1600 * 4));
  CHECK(predict(tied, Link{50e9, 1e-6, 1}, 1000, 100).pipeline_seconds ==
        Approx(p.pipeline_seconds + 2e-6 + 50257.0 * 1600 * 4 / 50e9));
  CHECK(volumes(Workload{.parameters = 1e9, .dp = 2, .width = 8, .vocab = 100}).pipeline == 0);  // no pp, no exchange
}

TEST_CASE("the α-β all-reduce and the compute time of 6·N·tokens") {
  const Link link{10e9, 5e-6, 1};
  CHECK(allreduce_seconds(1e9, 1, link) == 0);
  CHECK(allreduce_seconds(1e9, 4, link) == Approx(6 * 5e-6 + 1.5 * 1e9 / 10e9));
  CHECK(compute_seconds(124e6, 8 * 1024, 312e12, 0.5) == Approx(6 * 124e6 * 8192 / 156e12));
}

TEST_CASE("counts with suffixes") {
  CHECK(parse_count("708M") == 708e6);
  CHECK(parse_count("1.5B") == 1.5e9);
  CHECK(parse_count("124439808") == 124439808.0);
  CHECK_FALSE(parse_count("12x"));
  CHECK_FALSE(parse_count("-3M"));
  CHECK_FALSE(parse_count(""));
}

TEST_CASE("the interconnect table holds the seeds' peaks, and a user's entries add or replace") {
  const auto table = merge_interconnects({});
  REQUIRE(find_interconnect(table, "nvlink3"));
  CHECK(find_interconnect(table, "nvlink3")->bandwidth == 300);
  CHECK(find_interconnect(table, "ib-hdr")->bandwidth == 25);
  CHECK(find_interconnect(table, "ib-hdr")->latency_us == 0.6);
  CHECK(find_interconnect(table, "1gbe")->bandwidth == 0.125);
  for (const char* name : {"nvlink2", "nvlink4", "pcie4", "pcie5", "ib-edr", "ib-ndr", "10gbe", "25gbe", "100gbe"})
    CHECK(find_interconnect(table, name));
  const auto merged = merge_interconnects({{"ib-hdr", "ours", 23.1, 1.8, "collbench"}, {"mine", "mine", 5, {}, "x"}});
  CHECK(find_interconnect(merged, "ib-hdr")->bandwidth == 23.1);
  CHECK(find_interconnect(merged, "mine"));
  CHECK(merged.size() == table.size() + 1);
}

TEST_CASE("gradients may be all-reduced in another precision than the activations") {
  // trainbench all-reduces fp32 gradients of a bf16 model: the DP volume follows the gradients' bytes.
  Workload w{1e9, 2, 4, 1, 1, 1, 0, 0, 0, 0};
  w.gradient_bytes = 4;
  CHECK(volumes(w).data_parallel == Approx(6e9));
  CHECK(predict(w, Link{25e9, 0, 1}, 100, 10).data_parallel_seconds == Approx(1.5 * 4e9 / 25e9));
}

TEST_CASE("dtypes: the bytes of each element type, and none for an unknown name") {
  CHECK(sweep::model::dtype_bytes("bf16") == 2);
  CHECK(sweep::model::dtype_bytes("fp32") == 4);
  CHECK(sweep::model::dtype_bytes("fp64") == 8);
  CHECK_FALSE(sweep::model::dtype_bytes("fp8"));
}
