// Resources to #SBATCH options: the neutral checks and precedence (sched::effective_resources) and
// Slurm's directive words (slurm::sbatch_options).
#include <catch2/catch.hpp>

#include "sched/resources.h"
#include "slurm/directives.h"
#include "util/error.h"

using namespace sweep;

namespace {

sched::Resource res(const std::string& key, const std::string& value) { return {key, value, {"x.yaml", 7, 3}}; }

std::vector<std::string> options_of(const std::vector<sched::Resource>& rs, const std::vector<std::string>& values) {
  std::vector<sched::Resource> rendered = rs;
  for (std::size_t i = 0; i < rs.size(); ++i) rendered[i].value = values[i];
  return slurm::sbatch_options(sched::effective_resources(rendered));
}

}  // namespace

TEST_CASE("resources become sbatch options: values, flags and raw extras in file order") {
  const std::vector<sched::Resource> rs{res("nodes", ""), res("gpus-per-node", ""), res("exclusive", ""),
                                       res("extra", ""), res("time", "")};
  CHECK(options_of(rs, {"2", "4", "true", "--signal=USR1@60", "00:10:00"}) ==
        std::vector<std::string>{"--nodes=2", "--gpus-per-node=4", "--exclusive", "--signal=USR1@60", "--time=00:10:00"});
  CHECK(options_of({res("exclusive", "")}, {"false"}).empty());
  // Where the cluster has a default, an empty value leaves the option out (`--set partition=''`).
  CHECK(options_of({res("partition", ""), res("account", ""), res("gpus-per-node", ""), res("nodes", "")},
                   {"", "", "", "1"}) == std::vector<std::string>{"--nodes=1"});
}

TEST_CASE("requeue: true and false both say so to sbatch, empty leaves the cluster's JobRequeue") {
  CHECK(options_of({res("requeue", "")}, {"true"}) == std::vector<std::string>{"--requeue"});
  CHECK(options_of({res("requeue", "")}, {"no"}) == std::vector<std::string>{"--no-requeue"});
  CHECK(options_of({res("requeue", "")}, {""}).empty());
  CHECK_THROWS_WITH(options_of({res("requeue", "")}, {"sometimes"}),
                    "x.yaml:7:3: resource \"requeue\" must render to true or false, got \"sometimes\"");
}

TEST_CASE("a resource that renders badly is an error at the resource") {
  CHECK_THROWS_WITH(options_of({res("nodes", "")}, {""}),
                    "x.yaml:7:3: resource \"nodes\" must render to a positive integer, got \"\"");
  for (const char* bad : {"0", "-1", "2 ", "1.5", "two"})
    CHECK_THROWS_WITH(options_of({res("ntasks", "")}, {bad}), Catch::Contains("must render to a positive integer"));
  CHECK(options_of({res("cpus-per-task", "")}, {"8"}) == std::vector<std::string>{"--cpus-per-task=8"});
  CHECK_THROWS_WITH(options_of({res("mem", "")}, {""}),
                    "x.yaml:7:3: resource \"mem\" must render to one non-empty word, got \"\"");
  CHECK_THROWS_WITH(options_of({res("partition", "")}, {"a b"}),
                    "x.yaml:7:3: resource \"partition\" must render to one non-empty word, got \"a b\"");
  CHECK_THROWS_WITH(options_of({res("exclusive", "")}, {"maybe"}),
                    "x.yaml:7:3: resource \"exclusive\" must render to true or false, got \"maybe\"");
  CHECK_THROWS_WITH(options_of({res("extra", "")}, {"signal=USR1"}),
                    Catch::Contains("must be an option of the scheduler starting with -"));
}

TEST_CASE("a key given twice takes the last value, an optional one its last non-empty value") {
  // As a site file's resources come before the experiment's (spec/site.h).
  const std::vector<sched::Resource> rs{res("partition", "x"), res("account", "x"), res("time", "x"), res("extra", "x"),
                                       res("partition", "x"), res("account", "x"), res("time", "x"), res("extra", "x")};
  CHECK(options_of(rs, {"gpu", "lab", "30", "--a", "", "mine", "5", "--b"}) ==
        std::vector<std::string>{"--partition=gpu", "--a", "--account=mine", "--time=5", "--b"});
}

