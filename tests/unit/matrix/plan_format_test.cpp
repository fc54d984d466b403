#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "matrix/plan_format.h"
#include "spec/load.h"
#include "util/error.h"

using namespace sweep;

namespace {

std::string plan(const std::string& body, matrix::PlanFormat format) {
  const auto experiment = spec::load_text("name: t\nrepetitions: 2\n" + body + "workload:\n  command: echo\n", "t.yaml");
  const matrix::Expansion e(experiment);
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* out = ::open_memstream(&buf, &size);
  matrix::write_plan(out, experiment.name, e, experiment.repetitions, format);
  std::fclose(out);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

}  // namespace

TEST_CASE("plan JSON is versioned and carries every point and the totals") {
  const auto json = plan("matrix:\n  m: [\"a\\\"b\"]\n  x: [1.5, 2]\n", matrix::PlanFormat::json);
  CHECK_THAT(json, Catch::StartsWith(R"({"format":"sweep-plan","version":2,"experiment":"t","parameters":["m","x"])"));
  CHECK_THAT(json, Catch::Contains(R"("values":{"m":"a\"b","x":1.5}})"));
  CHECK_THAT(json, Catch::Contains(R"("point_count":2,"repetitions":2,"run_count":4})"));
}

TEST_CASE("plan CSV and table formats") {
  const auto csv = plan("matrix:\n  m: [\"a,b\"]\n", matrix::PlanFormat::csv);
  CHECK_THAT(csv, Catch::StartsWith("point_id,m\n") && Catch::EndsWith(",\"a,b\"\n"));
  const auto table = plan("matrix:\n  m: [x, y]\n", matrix::PlanFormat::table);
  CHECK_THAT(table, Catch::EndsWith("2 points x 2 repetitions = 4 runs\n"));
}

TEST_CASE("plan formats are looked up by name") {
  CHECK(matrix::plan_format_from_name("csv") == matrix::PlanFormat::csv);
  CHECK_THROWS_WITH(matrix::plan_format_from_name("jsno"), Catch::Contains("did you mean \"json\""));
}
