// report/point_identity.h: which parameters tell points apart, and what differs between two campaigns.
#include <catch2/catch.hpp>

#include <deque>

#include "report/point_identity.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// Points of one campaign, each given as its parameters; kept alive by the deque for the results.
struct Side {
  std::deque<store::PointRecord> points;
  std::vector<PointResult> results;
  void add(std::vector<store::ParamRecord> params) {
    points.push_back({"p" + std::to_string(points.size()), static_cast<std::int64_t>(points.size()), std::move(params)});
    results.push_back(PointResult{&points.back(), {}, 1, 0, 0});
  }
};

store::ParamRecord param(const char* name, const char* value, bool derived = false) { return {name, value, "string", derived}; }

}  // namespace

TEST_CASE("point identity: a one-valued parameter, shared or added, never splits a point, and derived values never do") {
  Side base, cand;
  for (const char* n : {"1", "2"}) {
    base.add({param("n", n), param("model", "gpt2"), param("twice", n, true)});
    cand.add({param("n", n), param("model", "gpt2"), param("steps", "1000"), param("twice", n, true)});
  }
  const Alignment a = align(base.results, cand.results);
  CHECK(a.differences.empty());
  CHECK(a.identity.params == std::vector<std::string>{"n"});
  CHECK(a.identity.constant == std::vector<std::string>{"model", "steps"});
  CHECK(identity_key(base.points[1], a.identity) == identity_key(cand.points[1], a.identity));
  CHECK(identity_key(cand.points[1], a.identity) == "n=2");
  // The history's rule over nights is the same, the night left out.
  Side nights;
  nights.add({param("night", "a"), param("n", "1")});
  nights.add({param("night", "b"), param("n", "1"), param("steps", "1000")});
  CHECK(point_identity({&nights.results}, "night").params.empty());
}

TEST_CASE("point identity: an axis renamed, an axis added with several values and a changed value are named") {
  Side base, renamed, changed;
  for (const char* n : {"8", "16"}) {
    base.add({param("batch", n), param("steps", "1000")});
    renamed.add({param("batch_size", n), param("steps", "1000"), param("lr", n)});
    changed.add({param("batch", n), param("steps", "2000")});
  }
  const Alignment r = align(base.results, renamed.results);
  REQUIRE(r.differences.size() == 2);
  CHECK(r.differences[0] == "the baseline has axis `batch` (16, 8), the candidate `batch_size` (16, 8)");
  CHECK(r.differences[1] == "the candidate has axis `lr` (16, 8), the baseline has not");
  CHECK(r.identity.params.empty());  // what differs is left out of matching
  const Alignment c = align(base.results, changed.results);
  CHECK(c.differences == std::vector<std::string>{"`steps` is 1000 in the baseline, 2000 in the candidate"});
  CHECK(c.identity.params == std::vector<std::string>{"batch"});
}

TEST_CASE("point identity: --map renames the baseline's parameter, and refuses names that do not fit") {
  std::vector<store::PointRecord> points{{"p0", 0, {param("batch", "8"), param("steps", "1")}}};
  rename_params(points, {{"batch", "batch_size"}});
  CHECK(points[0].params[0].name == "batch_size");
  CHECK_THROWS_WITH(rename_params(points, {{"nope", "x"}}), Catch::Contains("--map nope=x: the baseline has no parameter `nope`"));
  CHECK_THROWS_WITH(rename_params(points, {{"batch_size", "steps"}}),
                    Catch::Contains("--map batch_size=steps: the baseline has a parameter `steps` already"));
}
