// runner::criterion_failure: `success.where` over a run's metrics, index by index.
#include <catch2/catch.hpp>

#include "runner/success_criterion.h"

using namespace sweep;
using runner::criterion_failure;

namespace {

spec::Expr bound(const char* text) {
  spec::Expr e = spec::Expr::parse(text, SourceLocation{"x.yaml", 7, 10});
  e.bind(e.names());
  return e;
}

/// `name` with values[i] at index i.
std::vector<parse::Observation> series(const std::string& name, std::vector<double> values) {
  std::vector<parse::Observation> out;
  for (std::size_t i = 0; i < values.size(); ++i) out.push_back({name, i, values[i], "", ""});
  return out;
}

std::vector<parse::Observation> operator+(std::vector<parse::Observation> a, const std::vector<parse::Observation>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("success.where: holds at every index of a per-size metric") {
  const auto metrics = series("wrong", {0, 0, 0}) + series("busbw", {1.5, 9.0, 20.0});
  CHECK(criterion_failure(bound("wrong == 0 && busbw > 0"), metrics) == std::nullopt);
}

TEST_CASE("success.where: the first failing index, its values, and how many more failed") {
  const auto metrics = series("wrong", {0, 0, 2, 5}) + series("busbw", {1.5, 9.0, 11.5, 20.0});
  CHECK(criterion_failure(bound("wrong == 0 && busbw > 0"), metrics) ==
        "success.where \"wrong == 0 && busbw > 0\" at index 2 is false with wrong=2.0, busbw=11.5 "
        "(and at 1 other index)");
}

TEST_CASE("success.where: a metric with one value holds for every index") {
  const auto metrics = series("busbw", {4.0, 6.0, 8.0}) + series("peak", {7.0});
  CHECK(criterion_failure(bound("busbw < peak"), metrics) ==
        "success.where \"busbw < peak\" at index 2 is false with busbw=8.0, peak=7.0");
  CHECK(criterion_failure(bound("busbw <= peak + 1"), metrics) == std::nullopt);
}

TEST_CASE("success.where: a run-wide metric alone is judged once, without an index") {
  CHECK(criterion_failure(bound("samples_per_s > 100"), series("samples_per_s", {80})) ==
        "success.where \"samples_per_s > 100\" is false with samples_per_s=80.0");
}

TEST_CASE("success.where: a missing metric, a gap, a non-boolean and an error fail the run") {
  const auto busbw = series("busbw", {1.0, 2.0});
  CHECK(criterion_failure(bound("wrong == 0"), busbw) == "success.where \"wrong == 0\": metric \"wrong\" not found");
  CHECK(criterion_failure(bound("wrong == 0 && busbw > 0"), busbw + series("wrong", {0, 0, 0})) ==
        "success.where \"wrong == 0 && busbw > 0\" at index 2 metric \"busbw\" has no value at index 2");
  CHECK(criterion_failure(bound("busbw * 2"), busbw) ==
        "success.where \"busbw * 2\" at index 0 gives 2.0 (not true or false) with busbw=1.0 (and at 1 other index)");
  const std::optional<std::string> div = criterion_failure(bound("1 // (busbw - busbw) > 0"), series("busbw", {3}));
  REQUIRE(div);
  CHECK(div->find("cannot be evaluated with busbw=3.0: x.yaml:7:") != std::string::npos);
}
