#include "forecast/point_shape.h"

#include <catch2/catch.hpp>

using namespace sweep;
using namespace sweep::forecast;

namespace {
std::vector<sched::Resource> rs(std::initializer_list<std::pair<const char*, const char*>> kv) {
  std::vector<sched::Resource> out;
  for (const auto& [k, v] : kv) out.push_back({k, v, {}});
  return out;
}
}  // namespace

TEST_CASE("point shape: nodes, GPUs per run and the time limit from the rendered resources") {
  PointShape s = point_shape({});
  CHECK(s.nodes == 1);
  CHECK(s.gpus == 0);
  CHECK_FALSE(s.time_limit_s);
  s = point_shape(rs({{"nodes", "2"}, {"gpus-per-node", "4"}, {"time", "1:30:00"}}));
  CHECK(s.nodes == 2);
  CHECK(s.gpus == 8);
  CHECK(*s.time_limit_s == 5400);
  CHECK(point_shape(rs({{"gpus", "3"}, {"nodes", "2"}})).gpus == 3);
  CHECK(point_shape(rs({{"nodes", "2"}, {"gpus-per-node", "a100:2"}})).gpus == 4);
  CHECK(point_shape(rs({{"nodes", "3"}, {"gres", "gpu:a100:2"}})).gpus == 6);
  CHECK(point_shape(rs({{"gres", "shard:2"}})).gpus == 0);
  CHECK(point_shape(rs({{"ntasks", "4"}, {"gpus-per-task", "1"}})).gpus == 4);
  CHECK_FALSE(point_shape(rs({{"time", "UNLIMITED"}})).time_limit_s);
}
