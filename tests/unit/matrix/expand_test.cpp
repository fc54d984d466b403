#include <catch2/catch.hpp>

#include "matrix/expand.h"
#include "spec/load.h"
#include "util/error.h"

using namespace sweep;

namespace {

spec::Experiment load(const std::string& body) {
  return spec::load_text("name: t\n" + body + "workload:\n  command: echo\n", "t.yaml");
}

/// Every point as "name=value ..." over the whole schema.
std::vector<std::string> rows(const matrix::Expansion& e) {
  std::vector<std::string> out;
  e.for_each([&](const matrix::PointView& p) {
    std::string row;
    for (std::size_t i = 0; i < p.values.size(); ++i)
      row += (i ? " " : "") + e.schema().names[i] + "=" + p.values[i].text();
    out.push_back(row);
    return true;
  });
  return out;
}

}  // namespace

TEST_CASE("the matrix is the Cartesian product, last key varying fastest") {
  const matrix::Expansion e(load("matrix:\n  model: [a, b]\n  batch: [1, 2, 3]\n"));
  CHECK(e.combinations() == 6);
  CHECK(rows(e) == std::vector<std::string>{"model=a batch=1", "model=a batch=2", "model=a batch=3",
                                            "model=b batch=1", "model=b batch=2", "model=b batch=3"});
}

TEST_CASE("map-valued entries become several parameters") {
  const matrix::Expansion e(load("matrix:\n  topology: [{nodes: 1, gpus_per_node: 2}, {nodes: 2, gpus_per_node: 1}]\n"
                                 "  backend: [gloo]\n"));
  CHECK(e.schema().names == std::vector<std::string>{"nodes", "gpus_per_node", "backend"});
  CHECK(rows(e) == std::vector<std::string>{"nodes=1 gpus_per_node=2 backend=gloo",
                                            "nodes=2 gpus_per_node=1 backend=gloo"});
}

TEST_CASE("zipped keys pair element-wise instead of crossing") {
  const matrix::Expansion e(load("matrix:\n  model: [small, large]\n  seed: [1, 2]\n  batch: [64, 8]\n"
                                 "zip: [[model, batch]]\n"));
  CHECK(e.combinations() == 4);
  CHECK(rows(e) == std::vector<std::string>{"model=small seed=1 batch=64", "model=small seed=2 batch=64",
                                            "model=large seed=1 batch=8", "model=large seed=2 batch=8"});
}

TEST_CASE("derived values are computed per point and exclusions use them") {
  const matrix::Expansion e(load("matrix:\n  nodes: [1, 2]\n  gpus_per_node: [1, 2]\n  tp: [1, 4]\n"
                                 "derived:\n  gpus: \"nodes * gpus_per_node\"\n  per_gpu: \"gpus / 2\"\n"
                                 "exclude:\n  - where: \"tp > gpus\"\n  - {nodes: 2, gpus_per_node: 1}\n"));
  CHECK(rows(e) == std::vector<std::string>{
                       "nodes=1 gpus_per_node=1 tp=1 gpus=1 per_gpu=0.5",
                       "nodes=1 gpus_per_node=2 tp=1 gpus=2 per_gpu=1.0",
                       "nodes=2 gpus_per_node=2 tp=1 gpus=4 per_gpu=2.0",
                       "nodes=2 gpus_per_node=2 tp=4 gpus=4 per_gpu=2.0",
                   });
  const auto points = e.points();
  REQUIRE(points.size() == 4);
  CHECK(points[3].ordinal == 3);
}

TEST_CASE("point ids are stable hashes of the parameters only") {
  const matrix::Expansion e(load("matrix:\n  batch: [16]\n"));
  // Reference: sha256(b"batch\x1fint\x1f16\x1e")[:16], computed independently with Python's hashlib.
  CHECK(e.points()[0].id == "57b873cc52a874d9");
  const matrix::Expansion two(load("matrix:\n  model: [gpt2]\n  batch: [16]\nderived:\n  x: \"batch * 2\"\n"));
  CHECK(two.points()[0].id == "9a2642a703c6f941");  // key order and derived values do not matter
}

TEST_CASE("an expression error names the point it happened at") {
  const matrix::Expansion e(load("matrix:\n  b: [1, 0]\nderived:\n  q: \"10 // b\"\n"));
  try {
    e.points();
    FAIL("expected an error");
  } catch (const Error& err) {
    CHECK_THAT(err.what(), Catch::StartsWith("t.yaml:") && Catch::Contains("at point b=0"));
  }
}

TEST_CASE("for_each stops when the callback says so") {
  const matrix::Expansion e(load("matrix:\n  a: [1, 2, 3]\n  b: [1, 2, 3]\n"));
  int seen = 0;
  e.for_each([&](const matrix::PointView&) { return ++seen < 4; });
  CHECK(seen == 4);
}
