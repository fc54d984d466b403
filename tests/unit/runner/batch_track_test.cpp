// The batch driver's tracking through the scripted scheduler: pending reasons, requeues, TIMEOUT and
// escalation, an unreachable controller, adaptive repetitions, one query per poll cycle. Real run
// directories, a real SQLite file, a manual clock (tests/unit/runner/batch_rig.h).
#include <catch2/catch.hpp>

#include "unit/runner/batch_rig.h"

using namespace batchtest;
using runner::BatchMode;
using testing::Step;

namespace {
std::function<std::vector<Step>(std::size_t, int)> always(std::vector<Step> steps) {
  return [steps](std::size_t, int) { return steps; };
}
}  // namespace

TEST_CASE("batch: a task pending for a hopeless reason is cancelled after --max-pending as unsatisfiable") {
  Rig rig(experiment("[1]"));
  rig.options.max_pending_s = 60;
  rig.cluster.plan = always({testing::pending("ReqNodeNotAvail, UnavailableNodes:n1")});
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.failed == 1);
  CHECK(rig.query("SELECT failure_class FROM runs") == "unsatisfiable");
  CHECK_THAT(rig.query("SELECT failure_reason FROM runs"), Catch::Contains("ReqNodeNotAvail"));
  CHECK(rig.cluster.cancelled == std::vector<std::string>{"1000_0"});
  CHECK(rig.clock.elapsed_s() >= 60);
  CHECK(rig.clock.elapsed_s() < 120);  // --max-pending, not the default 600 s
}

TEST_CASE("batch: a task pending for a reason that may pass is not cancelled") {
  Rig rig(experiment("[1]"));
  rig.options.max_pending_s = 60;
  std::vector<Step> steps(40, testing::pending("Resources"));
  steps.push_back(testing::ran());
  rig.cluster.plan = always(steps);
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 1);
  CHECK(rig.cluster.cancelled.empty());
  CHECK(rig.clock.elapsed_s() > 60);
}

TEST_CASE("batch: a dependency that can never be satisfied is cancelled at once as dependency") {
  Rig rig(experiment("[1]"));
  rig.cluster.plan = always({testing::pending("DependencyNeverSatisfied")});
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.failed == 1);
  CHECK(rig.query("SELECT failure_class FROM runs") == "dependency");
  CHECK(rig.cluster.cancelled == std::vector<std::string>{"1000_0"});
  CHECK(rig.cluster.array_queries == 1);
}

TEST_CASE("batch: a requeued task is followed to its restart's end and the restart count is recorded") {
  Rig rig(experiment("[7]", "", "echo \"start ${SLURM_RESTART_COUNT:-0}\"; echo \"value: {{n}}\""));
  rig.cluster.plan = always({testing::started(), testing::pending("BeginTime", 1), testing::started(1),
                             testing::ended("", std::nullopt, 1)});
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 1);
  CHECK(rig.query("SELECT count(*) FROM attempts") == "1");
  CHECK(rig.query("SELECT value FROM run_provenance WHERE key = 'slurm.restarts'") == "1");
  CHECK(rig.cluster.arrays[0].tasks[0].starts == 2);
  // the restart began clean (templates/slurm/run.sh.mustache): only its own output is left
  CHECK(rig.read(rig.query("SELECT run_dir FROM runs") + "/stdout") == "start 1\nvalue: 7\n");
}

TEST_CASE("batch: a requeued task whose restart Slurm ended FAILED fails with Slurm's exit code") {
  // The first start ran the workload to exit 0 without its metric; Slurm requeued the job and the
  // restart failed before the job script ran (exit 1), so only the first start's files are there.
  Rig rig(experiment("[7]", "", "echo first start"));
  rig.cluster.plan = always({testing::started(), testing::pending("BeginTime", 1), testing::ended("FAILED", 1, 1)});
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.failed == 1);
  CHECK(rig.query("SELECT failure_class || ' ' || exit_code FROM runs") == "exit_code 1");
  CHECK_THAT(rig.query("SELECT failure_reason FROM runs"), Catch::Contains("FAILED"));
  CHECK(rig.query("SELECT value FROM run_provenance WHERE key = 'slurm.restarts'") == "1");
}

TEST_CASE("batch: TIMEOUT is retried with the escalated time limit in the new array's directives") {
  std::string yaml = experiment("[1]", "retries: {TIMEOUT: 2}\nescalate: {time: {factor: 2, max: 3}}\n");
  yaml.replace(yaml.find("time: 5"), 7, "time: 1");
  Rig rig(yaml);
  rig.cluster.plan = [](std::size_t submission, int) {
    return submission == 0 ? std::vector<Step>{testing::started(), testing::ended("TIMEOUT")} : std::vector<Step>{};
  };
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 1);
  CHECK(rig.query("SELECT group_concat(attempt || ':' || state || ':' || coalesce(failure_class, ''), ' ') FROM "
                  "(SELECT * FROM attempts ORDER BY attempt)") == "1:failed:timeout 2:succeeded:");
  CHECK(rig.query("SELECT value FROM run_provenance WHERE attempt = 1 AND key = 'slurm.options'") == "--time=1");
  CHECK(rig.query("SELECT value FROM run_provenance WHERE attempt = 2 AND key = 'slurm.escalated'") ==
        "time=00:02:00 after 1 timeout");
  REQUIRE(rig.cluster.arrays.size() == 2);
  CHECK_THAT(rig.read(rig.cluster.arrays[1].script), Catch::Contains("#SBATCH --time=00:02:00\n"));
  CHECK_THAT(rig.read(rig.cluster.arrays[0].script), Catch::Contains("#SBATCH --time=1\n"));
}

TEST_CASE("batch: an unreachable controller is waited out with back-off and no run fails") {
  Rig rig(experiment());
  rig.cluster.unreachable_polls = 8;
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 2);
  CHECK(s.failed == 0);
  CHECK(rig.query("SELECT count(*) FROM attempts") == "2");
  CHECK(rig.cluster.array_queries >= 10);  // 8 unanswered, then the task's two steps
  CHECK(rig.clock.elapsed_s() > 30);       // it backed off (poll_max 30 s) instead of hammering
}

namespace {
const char* const kAdaptive =
    "name: ad\nexecutor: slurm\nmatrix:\n  kind: [steady, wild]\nderived:\n  swing: \"kind == 'steady' ? 0 : 20\"\n"
    "repetitions: {min: 3, max: 6, until: {metric: value, ci95_rel: 0.02}}\nresources: {time: 5}\n"
    "workload:\n  command: |\n    if [ $(( {{repetition}} % 2 )) -eq 0 ]; then v=$(( 100 - {{swing}} )); "
    "else v=$(( 100 + {{swing}} )); fi\n    echo \"value=$v\"\n"
    "metrics: [{name: value, better: higher, regex: 'value=(?<value>\\d+)'}]\n";
}  // namespace

TEST_CASE("batch: a detached adaptive campaign's collects submit the further runs as one new array") {
  Rig rig(kAdaptive);
  rig.cluster.plan = always({testing::ran()});
  CHECK(rig.drive(BatchMode::detach).unfinished == 6);
  runner::RunSummary c;
  for (int i = 0; i < 5 && c.succeeded < 9; ++i) c = rig.drive(BatchMode::collect);
  CHECK(c.succeeded == 9);
  CHECK(c.unfinished == 0);
  REQUIRE(rig.cluster.arrays.size() == 2);
  CHECK(rig.cluster.arrays[1].tasks.size() == 3);
  CHECK(rig.query("SELECT count(*) FROM submissions") == "2");
}

TEST_CASE("batch: adaptive repetitions go out as a new array of the imprecise point's further runs") {
  Rig rig("name: ad\nexecutor: slurm\nmatrix:\n  kind: [steady, wild]\nderived:\n  swing: \"kind == 'steady' ? 0 : 20\"\n"
          "repetitions: {min: 3, max: 6, until: {metric: value, ci95_rel: 0.02}}\nresources: {time: 5}\n"
          "workload:\n  command: |\n    if [ $(( {{repetition}} % 2 )) -eq 0 ]; then v=$(( 100 - {{swing}} )); "
          "else v=$(( 100 + {{swing}} )); fi\n    echo \"value=$v\"\n"
          "metrics: [{name: value, better: higher, regex: 'value=(?<value>\\d+)'}]\n");
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 9);
  REQUIRE(rig.cluster.arrays.size() == 2);
  CHECK(rig.cluster.arrays[0].tasks.size() == 6);
  CHECK(rig.cluster.arrays[1].tasks.size() == 3);
  CHECK(rig.query("SELECT group_concat(rep, ',') FROM (SELECT r.repetition AS rep FROM submission_tasks t JOIN runs r "
                  "ON r.id = t.run_id WHERE t.submission_id = (SELECT max(id) FROM submissions) ORDER BY t.task)") == "3,4,5");
}

TEST_CASE("batch: each poll cycle is one scheduler query, of one array by its job id, in turn") {
  Rig rig(experiment("[1, 2, 3]"));
  rig.cluster.limits.max_array_tasks = 1;  // three arrays
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 3);
  CHECK(rig.cluster.arrays.size() == 3);
  CHECK(s.polls > 0);
  CHECK(s.queries == s.polls);
  CHECK(rig.cluster.queries() == s.polls);
  CHECK(rig.cluster.name_queries == 0);
}

TEST_CASE("batch: NODE_FAIL is retried as a new attempt and FAILED with an exit code is not") {
  Rig rig(experiment("[1, 3]", "retries: {NODE_FAIL: 1}\n", "if [ {{n}} = 3 ]; then exit 3; fi; echo \"value: {{n}}\""));
  rig.cluster.plan = [](std::size_t submission, int task) {
    return submission == 0 && task == 0 ? std::vector<Step>{testing::started(), testing::ended("NODE_FAIL", 0)}
                                        : std::vector<Step>{};
  };
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 1);
  CHECK(s.failed == 1);
  CHECK(rig.query("SELECT group_concat(attempt || ':' || state || ':' || coalesce(failure_class, ''), ' ') FROM "
                  "(SELECT * FROM attempts ORDER BY run_id, attempt)") == "1:failed:node_fail 2:succeeded: 1:failed:exit_code");
  CHECK(rig.query("SELECT exit_code FROM runs WHERE failure_class = 'exit_code'") == "3");
  CHECK(rig.cluster.arrays.size() == 2);
}

TEST_CASE("batch: the scheduler's usage figures become metrics and provenance, and without accounting the run succeeds alone") {
  Rig rig(experiment("[1]"));
  sched::JobUsage u;
  u.array_job_id = "1000";
  u.task = 0;
  u.cpu_time_s = 2.5;
  u.max_rss_mib = 216.25;
  u.req_mem = "1G";
  u.timelimit = "00:05:00";
  rig.cluster.usage_records = {u};
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 1);
  CHECK(rig.cluster.usage_calls == 1);  // one usage call for the tasks that ended in a cycle
  CHECK(rig.query("SELECT value || ' ' || unit FROM metrics WHERE name = 'slurm_max_rss_mib'") == "216.25 MiB");
  CHECK(rig.query("SELECT value FROM metrics WHERE name = 'slurm_cpu_time_s'") == "2.5");
  CHECK(rig.query("SELECT value FROM run_provenance WHERE key = 'slurm.timelimit'") == "00:05:00");
  CHECK(rig.query("SELECT value FROM run_provenance WHERE key = 'resources.time'") == "5");

  Rig off(experiment("[1]"));
  off.cluster.accounting_enabled = false;
  off.cluster.usage_records = {u};
  CHECK(off.drive(BatchMode::run).succeeded == 1);
  CHECK(off.query("SELECT count(*) FROM metrics WHERE name LIKE 'slurm_%'") == "0");
}

TEST_CASE("batch: a task whose end accounting has not stored yet waits at most two cycles for its usage figures") {
  sched::JobUsage u;
  u.array_job_id = "1000";
  u.task = 0;
  u.max_rss_mib = 100;
  Rig rig(experiment("[1]"));
  rig.cluster.usage_records = {u};
  rig.cluster.accounting_lag = 1;
  CHECK(rig.drive(BatchMode::run).succeeded == 1);
  CHECK(rig.cluster.usage_calls == 2);  // asked again the next cycle, when accounting had it
  CHECK(rig.query("SELECT value FROM metrics WHERE name = 'slurm_max_rss_mib'") == "100.0");

  Rig behind(experiment("[1]"));
  behind.cluster.accounting_lag = 100;  // never catches up: the run is finished on squeue's word
  CHECK(behind.drive(BatchMode::run).succeeded == 1);
  CHECK(behind.cluster.usage_calls == 3);
}
