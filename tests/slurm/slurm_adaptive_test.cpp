// Adaptive repetitions on Slurm: a detached campaign whose collect, once a round has ended, submits
// the next round's runs as a new job array.
#include <catch2/catch.hpp>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("adaptive repetitions on Slurm: collect submits each point's further runs as one new array") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  // steady: 100 every run (precise at 3); wild: 80, 120, 80, ... (never precise: 3 runs, then 3 more).
  box.write("ad.yaml", R"(name: ad
executor: slurm
matrix:
  kind: [steady, wild]
derived:
  swing: "kind == 'steady' ? 0 : 20"
repetitions: {min: 3, max: 6, until: {metric: value, ci95_rel: 0.02}}
resources: {time: 5}
workload:
  command: |
    if [ $(( {{repetition}} % 2 )) -eq 0 ]; then v=$(( 100 - {{swing}} )); else v=$(( 100 + {{swing}} )); fi
    echo "value=$v"
metrics: [{name: value, better: higher, regex: 'value=(?<value>\d+)'}]
)");
  const auto d = box.sweep({"run", "ad.yaml", "--label", L, "--detach"});
  INFO(d.out << d.err);
  REQUIRE(d.exit_code == 0);
  CHECK_THAT(d.out, Catch::Contains("6 runs planned, 0 succeeded, 0 failed, 6 unfinished"));
  e2e::Result c;
  wait_until([&] {
    c = box.sweep({"collect", L, "--poll-max", "1"});
    return c.out.find("9 runs planned, 9 succeeded") != std::string::npos;
  }, std::chrono::seconds(120), "collect to run the second round");
  INFO(c.out << c.err);
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Catch::Contains("repetitions: 1 of 2 points met ci95_rel <= 2% of value with 3 runs; 1 reached max 6"));
  CHECK(query(box, "SELECT count(*) FROM submissions") == "2");
  // The second array holds the wild point's repetitions 3 to 5, and nothing of the steady point.
  CHECK(query(box, "SELECT group_concat(rep, ',') FROM (SELECT r.repetition AS rep FROM submission_tasks t JOIN runs r "
                   "ON r.id = t.run_id WHERE t.submission_id = (SELECT max(id) FROM submissions) ORDER BY t.task)") == "3,4,5");
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "9");
}
