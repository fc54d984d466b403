// Whether a baseline ran on other hardware (report/hardware_change.h): the decision over literal values,
// its refusal's message, and the lines an allowed change prints.
#include <catch2/catch.hpp>

#include "report/hardware_change.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

const std::vector<std::string> kKey{"gpu.model", "gpu.count", "cpu_model"};

/// Runs 1..n, each with the values of `kv`.
std::vector<store::AttemptValue> runs(int n, const std::vector<std::pair<std::string, std::string>>& kv) {
  std::vector<store::AttemptValue> out;
  for (int run = 1; run <= n; ++run)
    for (const auto& [k, v] : kv) out.push_back({run, 1, k, v});
  return out;
}

}  // namespace

TEST_CASE("hardware change: the same GPUs and CPU are the same hardware, other GPUs are not") {
  const auto a100 = runs(3, {{"gpu.model", "NVIDIA A100"}, {"gpu.count", "4"}, {"cpu_model", "EPYC"}, {"nccl.version", "2.19.3"}});
  const auto a100_new_nccl = runs(2, {{"gpu.model", "NVIDIA A100"}, {"gpu.count", "4"}, {"cpu_model", "EPYC"}, {"nccl.version", "2.21.5"}});
  const auto h100 = runs(3, {{"gpu.model", "NVIDIA H100"}, {"gpu.count", "4"}, {"cpu_model", "EPYC"}});
  // NCCL is not in the default key: not other hardware.
  CHECK_FALSE(hardware_change(kKey, a100, a100_new_nccl).changed());
  const auto c = hardware_change(kKey, a100, h100);
  REQUIRE(c.changes.size() == 1);
  CHECK(key_change_text(c.changes[0]) == "gpu.model NVIDIA A100 -> NVIDIA H100");
  // With NCCL in the key, it is.
  const auto with_nccl = hardware_change({"gpu.model", "nccl.version"}, a100, a100_new_nccl);
  REQUIRE(with_nccl.changes.size() == 1);
  CHECK(key_change_text(with_nccl.changes[0]) == "nccl.version 2.19.3 -> 2.21.5");
}

TEST_CASE("hardware change: a side without a value differs from one with it, two without do not differ") {
  const auto none = runs(2, {{"cpu_model", "EPYC"}});  // no nvidia-smi
  const auto gpus = runs(2, {{"gpu.model", "NVIDIA H100"}, {"gpu.count", "8"}, {"cpu_model", "EPYC"}});
  CHECK_FALSE(hardware_change(kKey, none, runs(1, {{"cpu_model", "EPYC"}})).changed());
  const auto c = hardware_change(kKey, none, gpus);
  REQUIRE(c.changes.size() == 2);
  CHECK(key_change_text(c.changes[0]) == "gpu.model none -> NVIDIA H100");
  CHECK(key_change_text(c.changes[1]) == "gpu.count none -> 8");
  // A mixed side lists its distinct values.
  auto mixed = gpus;
  mixed.push_back({9, 1, "gpu.model", "NVIDIA A100"});
  CHECK(key_change_text(hardware_change(kKey, gpus, mixed).changes.at(0)) == "gpu.model NVIDIA H100 -> NVIDIA A100, NVIDIA H100");
}

TEST_CASE("hardware change: refused unless allowed, the message naming the change, the key and the flag") {
  const auto c = hardware_change(kKey, runs(1, {{"gpu.model", "NVIDIA A100"}}), runs(1, {{"gpu.model", "NVIDIA H100"}}));
  CHECK_NOTHROW(refuse_unless_allowed(c, true, "base", "cand"));
  CHECK_NOTHROW(refuse_unless_allowed(hardware_change(kKey, {}, {}), false, "base", "cand"));
  try {
    refuse_unless_allowed(c, false, "base", "cand");
    FAIL("not refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("the baseline base ran on other hardware than cand: gpu.model NVIDIA A100 -> NVIDIA H100 "
                               "(hardware key: gpu.model, gpu.count, cpu_model)") &&
                   Catch::Contains("--allow-hardware-change") && Catch::Contains("--hardware-key"));
  }
  CHECK(hardware_change_lines(c) == "hardware changed (--allow-hardware-change): gpu.model NVIDIA A100 -> NVIDIA H100\n");
  CHECK(hardware_change_lines(hardware_change(kKey, {}, {})).empty());
  // A value from a database (an imported bundle) cannot forge a line or send an escape.
  const auto forged = hardware_change(kKey, {}, runs(1, {{"gpu.model", "H100\nhardware changed: none\x1b[2J"}}));
  CHECK(hardware_change_lines(forged) == "hardware changed (--allow-hardware-change): gpu.model none -> H100\\x0ahardware "
                                         "changed: none\\x1b[2J\n");
  CHECK(hardware_values_text(kKey, runs(2, {{"gpu.model", "NVIDIA H100"}, {"gpu.count", "8"}})) ==
        "gpu.model NVIDIA H100; gpu.count 8; cpu_model none");
}
