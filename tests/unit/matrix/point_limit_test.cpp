#include <catch2/catch.hpp>

#include <atomic>

#include "matrix/expand.h"
#include "matrix/point_limit.h"
#include "spec/load.h"

using namespace sweep;

namespace {

spec::Experiment load(const std::string& body) {
  return spec::load_text("name: t\n" + body + "workload:\n  command: echo\n", "t.yaml");
}

/// "[0, 1, ..., n-1]"
std::string values(int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(i);
  return out + "]";
}

}  // namespace

TEST_CASE("grouped digits") {
  CHECK(matrix::grouped(0) == "0");
  CHECK(matrix::grouped(999) == "999");
  CHECK(matrix::grouped(1000) == "1,000");
  CHECK(matrix::grouped(100000) == "100,000");
  CHECK(matrix::grouped(1000000000) == "1,000,000,000");
  CHECK(matrix::grouped(UINT64_MAX) == "18,446,744,073,709,551,615");
}

TEST_CASE("a matrix over the limit is refused from its axes' sizes") {
  const matrix::Expansion e(load("matrix:\n  a: " + values(100) + "\n  b: " + values(100) + "\n  c: [x, y]\n"));
  CHECK(e.combinations() == 20000);
  CHECK_FALSE(matrix::too_many_points(e, 20000));
  const auto refusal = matrix::too_many_points(e, 19999);
  REQUIRE(refusal);
  CHECK(*refusal == "the matrix has 20,000 points (a 100 x b 100 x c 2), more than --max-points 19,999: check the "
                    "axes for a typo, or raise the limit with --max-points (sweep plan lists a matrix of any size)");
}

TEST_CASE("a zip group is one factor of the size, named by its keys") {
  const matrix::Expansion e(load("matrix:\n  a: [1, 2, 3]\n  b: [4, 5, 6]\n  c: [7, 8]\nzip: [[a, b]]\n"));
  const auto sizes = e.unit_sizes();
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[0] == std::pair<std::string, std::uint64_t>{"a+b", 3});
  CHECK(sizes[1] == std::pair<std::string, std::uint64_t>{"c", 2});
  CHECK(matrix::too_many_points(e, 5)->starts_with("the matrix has 6 points (a+b 3 x c 2)"));
}

TEST_CASE("with exclusions the sizes alone do not decide") {
  const matrix::Expansion e(load("matrix:\n  a: " + values(10) + "\n  b: " + values(10) + "\nexclude:\n  - where: a > 0\n"));
  CHECK(e.has_exclusions());
  CHECK_FALSE(matrix::too_many_points(e, 50));  // 10 points survive: only the walk can tell
  CHECK(matrix::too_many_points_seen(e, 5).starts_with(
      "more than --max-points 5 points of the matrix survive its exclusions (100 before them: a 10 x b 10)"));
}

TEST_CASE("the number of combinations saturates instead of wrapping") {
  std::string body = "matrix:\n";
  for (int axis = 0; axis < 8; ++axis) body += "  k" + std::to_string(axis) + ": " + values(1000) + "\n";
  const matrix::Expansion e(load(body));  // 10^24 combinations
  CHECK(e.combinations() == UINT64_MAX);
  CHECK(matrix::too_many_points(e, 100)->starts_with("the matrix has more than 18,446,744,073,709,551,615 points"));
}

TEST_CASE("a walk stops when it is cancelled, even where every combination is excluded") {
  const matrix::Expansion e(load("matrix:\n  a: " + values(1000) + "\n  b: " + values(1000) +
                                 "\nexclude:\n  - where: a >= 0\n"));
  std::atomic<bool> cancel{false};
  int seen = 0;
  e.for_each([&](const matrix::PointView&) { return ++seen, true; }, &cancel);
  CHECK(seen == 0);  // the whole walk ran: everything is excluded
  cancel = true;
  std::uint64_t walked = 0;
  e.for_each([&](const matrix::PointView&) { return ++walked, true; }, &cancel);
  CHECK(walked == 0);
  const matrix::Expansion kept(load("matrix:\n  a: " + values(1000) + "\n  b: " + values(1000) + "\n"));
  std::uint64_t points = 0;
  kept.for_each([&](const matrix::PointView&) { return ++points, true; }, &cancel);
  CHECK(points == 4095);  // the flag is read every 4096 combinations
}
