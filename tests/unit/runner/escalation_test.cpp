// runner/escalation.h: the resources of an attempt after earlier failures.
#include <catch2/catch.hpp>

#include "runner/escalation.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;

namespace {
const std::vector<spec::Escalation> kBoth{{"time", "timeout", 2, 3600, {"x.yaml", 7, 3}},
                                          {"mem", "out_of_memory", 2, 16384, {"x.yaml", 8, 3}}};
const std::vector<sched::Resource> kResources{{"nodes", "1", {}}, {"time", "20", {}}, {"mem", "4G", {}}};

std::vector<std::string> values(const AttemptResources& a) {
  std::vector<std::string> out;
  for (const auto& r : a.resources) out.push_back(r.key + "=" + r.value);
  return out;
}
}  // namespace

TEST_CASE("the first attempt keeps the point's resources, each failure of a class grows its resource") {
  CHECK(values(attempt_resources(kResources, kBoth, {})) == std::vector<std::string>{"nodes=1", "time=20", "mem=4G"});
  CHECK(attempt_resources(kResources, kBoth, {}).note.empty());
  const auto after_timeout = attempt_resources(kResources, kBoth, {{"timeout", 1}, {"exit_code", 3}});
  CHECK(values(after_timeout) == std::vector<std::string>{"nodes=1", "time=00:40:00", "mem=4G"});
  CHECK(after_timeout.note == "time=00:40:00 after 1 timeout");
  const auto both = attempt_resources(kResources, kBoth, {{"timeout", 3}, {"out_of_memory", 1}});
  CHECK(values(both) == std::vector<std::string>{"nodes=1", "time=01:00:00", "mem=8192M"});  // 160 min capped
  CHECK(both.note == "time=01:00:00 after 3 timeout, mem=8192M after 1 out_of_memory");
}

TEST_CASE("an escalated resource the point lacks, or that cannot be scaled, is an error at the escalate entry") {
  CHECK_THROWS_WITH(attempt_resources({{"nodes", "1", {}}, {"mem", "4G", {}}}, kBoth, {{"timeout", 1}}),
                    "x.yaml:7:3: \"escalate.time\" has nothing to scale: the run's resources set no \"time\"");
  CHECK_THROWS_WITH(attempt_resources({{"time", "UNLIMITED", {}}, {"mem", "4G", {}}}, kBoth, {{"timeout", 1}}),
                    "x.yaml:7:3: \"escalate.time\" cannot scale \"UNLIMITED\": expected a finite time limit such as 30 or 01:00:00");
  CHECK_THROWS_WITH(attempt_resources({{"time", "1.5", {"x.yaml", 5, 9}}}, kBoth, {{"timeout", 1}}),
                    "x.yaml:7:3: \"escalate.time\" cannot scale \"1.5\" (at x.yaml:5:9): expected a finite time limit such as 30 or "
                    "01:00:00");
}

TEST_CASE("the --timeout option replaces the time limit, or adds one, and escalation grows it from there") {
  const auto limited = with_time_limit(kResources, 90);
  CHECK(values(AttemptResources{limited, ""}) == std::vector<std::string>{"nodes=1", "time=00:01:30", "mem=4G"});
  CHECK(limited[1].where.file == "--timeout");
  const auto added = with_time_limit({{"nodes", "2", {}}}, 2 * 86400 + 1.2);
  CHECK(values(AttemptResources{added, ""}) == std::vector<std::string>{"nodes=2", "time=2-00:00:02"});
  CHECK(values(attempt_resources(limited, kBoth, {{"timeout", 1}})) ==
        std::vector<std::string>{"nodes=1", "time=00:03:00", "mem=4G"});
}
