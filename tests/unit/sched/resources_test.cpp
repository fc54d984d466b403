// sched/resources.h: the neutral checks and precedence of a point's resources, before any scheduler
// turns them into directives (tests/unit/slurm/directives_test.cpp covers Slurm's words).
#include <catch2/catch.hpp>

#include "sched/resources.h"

using namespace sweep;
using namespace sweep::sched;

namespace {

std::vector<std::string> effective(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::vector<Resource> rendered;
  for (const auto& [k, v] : kv) rendered.push_back({k, v, {"x.yaml", 3, 5}});
  std::vector<std::string> out;
  for (const auto& r : effective_resources(rendered)) out.push_back(r.key + "=" + r.value);
  return out;
}

}  // namespace

TEST_CASE("flags and toggles normalised, the cluster's defaults left out, the last value of a key kept") {
  CHECK(effective({{"exclusive", "yes"}, {"requeue", "0"}, {"nodes", "2"}}) ==
        std::vector<std::string>{"exclusive=true", "requeue=false", "nodes=2"});
  CHECK(effective({{"exclusive", "no"}, {"requeue", ""}, {"partition", ""}}).empty());
  CHECK(effective({{"partition", "site"}, {"time", "10"}, {"partition", ""}, {"time", "20"}}) ==
        std::vector<std::string>{"partition=site", "time=20"});
  CHECK(effective({{"extra", "--a"}, {"extra", "--b"}}) == std::vector<std::string>{"extra=--a", "extra=--b"});
}

TEST_CASE("a value of the wrong kind is an error at the resource") {
  CHECK_THROWS_WITH(effective({{"requeue", "maybe"}}),
                    "x.yaml:3:5: resource \"requeue\" must render to true or false, got \"maybe\"");
  CHECK_THROWS_WITH(effective({{"ntasks", "0"}}), "x.yaml:3:5: resource \"ntasks\" must render to a positive integer, got \"0\"");
  CHECK_THROWS_WITH(effective({{"extra", "x"}}), Catch::Contains("must be an option of the scheduler starting with -"));
}
