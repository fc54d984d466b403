#include "telemetry/gpu_selection.h"

#include <catch2/catch.hpp>

using sweep::telemetry::select_gpus;

namespace {
const std::vector<std::string> kUuids{"GPU-8f2c1111", "GPU-1b2c2222", "GPU-1b993333", "GPU-aaaa4444"};
}

TEST_CASE("telemetry gpu_selection: unset is every GPU, set is CUDA's list") {
  CHECK(select_gpus(std::nullopt, kUuids) == std::vector<int>{0, 1, 2, 3});
  CHECK(select_gpus(std::string("2,0"), kUuids) == std::vector<int>{2, 0});
  CHECK(select_gpus(std::string("GPU-aaaa4444"), kUuids) == std::vector<int>{3});
  CHECK(select_gpus(std::string("8f2c, 1b2c"), kUuids) == std::vector<int>{0, 1});
  CHECK(select_gpus(std::string("1,1"), kUuids) == std::vector<int>{1});
}

TEST_CASE("telemetry gpu_selection: the list ends at the first entry naming no GPU") {
  CHECK(select_gpus(std::string(""), kUuids).empty());
  CHECK(select_gpus(std::string("-1"), kUuids).empty());
  CHECK(select_gpus(std::string("1,7,0"), kUuids) == std::vector<int>{1});
  CHECK(select_gpus(std::string("0,1b"), kUuids) == std::vector<int>{0});  // ambiguous prefix
}
