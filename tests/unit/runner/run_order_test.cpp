// runner::run_order: the start order of a campaign's runs, interleaved, grouped or a seeded shuffle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "runner/run_order.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

struct Run {
  std::string point_id;
  int repetition;
};

/// "a0" for point a, repetition 0.
std::vector<std::string> names(const std::vector<Run>& runs) {
  std::vector<std::string> out;
  for (const Run& r : runs) out.push_back(r.point_id + std::to_string(r.repetition));
  return out;
}

/// Three points of two repetitions as the database lists them: point by point.
std::vector<Run> stored() { return {{"a", 0}, {"a", 1}, {"b", 0}, {"b", 1}, {"c", 0}, {"c", 1}}; }

std::vector<Run> ordered(std::vector<Run> runs, spec::RunOrder order) {
  order_runs(runs, order);
  return runs;
}

}  // namespace

TEST_CASE("run order: interleaved is round-robin over the points, in their first-seen order") {
  CHECK(names(ordered(stored(), {spec::RunOrder::Kind::interleaved, 0})) ==
        std::vector<std::string>{"a0", "b0", "c0", "a1", "b1", "c1"});
  // Whatever order they come in, the points keep the order of their first appearance.
  CHECK(names(ordered({{"b", 1}, {"a", 1}, {"b", 0}, {"a", 0}}, {})) == std::vector<std::string>{"b0", "a0", "b1", "a1"});
}

TEST_CASE("run order: grouped runs every repetition of a point before the next point") {
  CHECK(names(ordered({{"a", 1}, {"b", 0}, {"a", 0}, {"b", 1}}, {spec::RunOrder::Kind::grouped, 0})) ==
        std::vector<std::string>{"a0", "a1", "b0", "b1"});
}

TEST_CASE("run order: random is a permutation that its seed alone decides") {
  std::vector<Run> runs;
  for (int p = 0; p < 10; ++p)
    for (int r = 0; r < 5; ++r) runs.push_back({"p" + std::to_string(p), r});
  const auto one = names(ordered(runs, {spec::RunOrder::Kind::random, 1}));
  CHECK(one == names(ordered(runs, {spec::RunOrder::Kind::random, 1})));
  CHECK(one != names(ordered(runs, {spec::RunOrder::Kind::random, 2})));
  CHECK(one != names(runs));
  auto sorted = one;
  auto original = names(runs);
  std::sort(sorted.begin(), sorted.end());
  std::sort(original.begin(), original.end());
  CHECK(sorted == original);
  // The same on every machine and compiler: splitmix64 and Fisher-Yates, no std::shuffle.
  CHECK(names(ordered(stored(), {spec::RunOrder::Kind::random, 42})) == std::vector<std::string>{"c0", "b1", "a0", "b0", "c1", "a1"});
}

TEST_CASE("run order: a deque (the local driver's queue) reorders as a vector does, and empty and one run are fine") {
  std::deque<Run> q{{"a", 0}, {"a", 1}, {"b", 0}};
  order_runs(q, {});
  CHECK(q[1].point_id == "b");
  std::vector<Run> none;
  order_runs(none, {spec::RunOrder::Kind::random, 3});
  CHECK(none.empty());
  CHECK(run_order({{"a", 0}}, {spec::RunOrder::Kind::random, 3}) == std::vector<std::size_t>{0});
}

TEST_CASE("run order: described for messages") {
  CHECK(describe(spec::RunOrder{}) == "interleaved");
  CHECK(describe(spec::RunOrder{spec::RunOrder::Kind::random, 9}) == "random (seed 9)");
}
