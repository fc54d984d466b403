// The batch driver's submissions through the scripted scheduler: the crash contract, transient submit
// errors, submit limits, and the detach / collect / cancel modes. Real run directories, a real SQLite
// file, a manual clock (tests/unit/runner/batch_rig.h).
#include <catch2/catch.hpp>

#include "unit/runner/batch_rig.h"

using namespace batchtest;
using runner::BatchMode;
using testing::SubmitAnswer;

TEST_CASE("batch: a submitting row whose array reached the scheduler is adopted by its job name on resume") {
  Rig rig(experiment());
  rig.cluster.answers = {SubmitAnswer::crash_after};
  REQUIRE_THROWS_AS(rig.drive(BatchMode::run), testing::ControllerKilled);
  CHECK(rig.query("SELECT state FROM submissions") == "submitting");
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 2);
  CHECK(rig.cluster.submits == 1);  // nothing submitted twice
  CHECK(rig.cluster.arrays.size() == 1);
  CHECK(rig.query("SELECT count(*) || ' ' || max(attempt) FROM attempts") == "2 1");
  CHECK(rig.query("SELECT state || ' ' || job_id FROM submissions") == "submitted 1000");
}

TEST_CASE("batch: a submitting row whose array never reached the scheduler is submitted again, once") {
  Rig rig(experiment());
  rig.cluster.answers = {SubmitAnswer::crash_before};
  REQUIRE_THROWS_AS(rig.drive(BatchMode::run), testing::ControllerKilled);
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 2);
  CHECK(rig.cluster.submits == 2);
  CHECK(rig.cluster.arrays.size() == 1);
  CHECK(rig.query("SELECT group_concat(attempt || ':' || state || ':' || coalesce(failure_class, ''), ' ') FROM "
                  "(SELECT * FROM attempts ORDER BY run_id, attempt)") ==
        "1:failed:interrupted 2:succeeded: 1:failed:interrupted 2:succeeded:");
  CHECK(rig.query("SELECT group_concat(state, ' ') FROM (SELECT state FROM submissions ORDER BY id)") == "failed submitted");
}

TEST_CASE("batch: a transient submit error whose array got through is adopted by name, not submitted again") {
  Rig rig(experiment());
  rig.cluster.answers = {SubmitAnswer::transient_accepted};
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 2);
  CHECK(rig.cluster.submits == 1);
  CHECK(rig.cluster.arrays.size() == 1);
  CHECK(rig.cluster.name_queries >= 1);  // it asked by name while the submission was unconfirmed
  CHECK(rig.query("SELECT count(*) FROM attempts") == "2");
}

TEST_CASE("batch: a transient submit error that lost the array is submitted again once the name is not found") {
  Rig rig(experiment());
  rig.cluster.answers = {SubmitAnswer::transient_lost};
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 2);
  CHECK(rig.cluster.submits == 2);
  CHECK(rig.cluster.arrays.size() == 1);
}

TEST_CASE("batch: a submission refused for a submit limit waits, and the rest is submitted once room is made") {
  Rig rig(experiment("[1, 2, 3, 4]"));
  rig.cluster.limits.max_array_tasks = 2;  // two arrays of two tasks
  rig.cluster.submit_limit = 2;            // the second is refused while the first is queued
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 4);
  CHECK(s.failed == 0);
  REQUIRE(rig.cluster.submits == 3);
  CHECK(rig.cluster.queued_at_submit == std::vector<std::size_t>{0, 2, 0});  // the third after the first array ended
  CHECK(rig.cluster.arrays.size() == 2);
  CHECK(rig.query("SELECT count(*) FROM runs WHERE state = 'succeeded'") == "4");
}

TEST_CASE("batch: a submission the scheduler refuses fails its runs as submit with its message") {
  Rig rig(experiment());
  rig.cluster.answers = {SubmitAnswer::refuse};
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.failed == 2);
  CHECK(rig.query("SELECT group_concat(DISTINCT failure_class) FROM runs") == "submit");
  CHECK_THAT(rig.query("SELECT failure_reason FROM runs LIMIT 1"), Catch::Contains("invalid partition specified"));
}

TEST_CASE("batch: detach submits and returns, collect ingests what ended, without a second submission") {
  Rig rig(experiment());
  rig.cluster.plan = [](std::size_t, int) { return std::vector<testing::Step>{testing::ran()}; };
  const auto d = rig.drive(BatchMode::detach);
  CHECK(d.unfinished == 2);
  CHECK(rig.cluster.submits == 1);
  CHECK(rig.cluster.queries() == 0);  // detach never polls
  const auto c = rig.drive(BatchMode::collect);
  CHECK(c.succeeded == 2);
  CHECK(c.unfinished == 0);
  CHECK(rig.cluster.submits == 1);
  CHECK(rig.cluster.array_queries == 1);  // one pass over the one array
  // The workload's metric (each run's telemetry metrics are there too: runner/telemetry_ingest.h).
  CHECK(rig.query("SELECT group_concat(value, ',') FROM (SELECT value FROM metrics WHERE name = 'value' ORDER BY value)") == "1.0,2.0");
  CHECK(rig.query("SELECT count(*) FROM metrics WHERE name = 'cpu_time_s'") == "2");
}

TEST_CASE("batch: cancel cancels the queued arrays and records their attempts as cancelled") {
  Rig rig(experiment());
  rig.cluster.plan = [](std::size_t, int) { return std::vector<testing::Step>{testing::pending("Priority")}; };
  rig.drive(BatchMode::detach);
  const auto c = rig.drive(BatchMode::cancel);
  CHECK(c.failed == 2);
  CHECK(rig.cluster.cancelled == std::vector<std::string>{"1000"});
  CHECK(rig.query("SELECT group_concat(DISTINCT failure_class) FROM runs") == "cancelled");
  CHECK(rig.cluster.arrays[0].tasks[0].starts == 0);
}

TEST_CASE("batch: cancel also cancels the runs not submitted yet, so that a later collect submits nothing") {
  Rig rig(experiment("[1, 2, 3]"));
  rig.options.max_queued = 1;  // two runs wait in the campaign's own queue
  rig.cluster.plan = [](std::size_t, int) { return std::vector<testing::Step>{testing::pending("Priority")}; };
  rig.drive(BatchMode::detach);
  REQUIRE(rig.cluster.arrays.size() == 1);
  const auto c = rig.drive(BatchMode::cancel);
  CHECK(c.cancelled_tasks == 1);
  CHECK(c.cancelled_unsubmitted == 2);
  CHECK(rig.query("SELECT count(*) FROM runs WHERE failure_class = 'cancelled'") == "3");
  rig.drive(BatchMode::collect);
  CHECK(rig.cluster.arrays.size() == 1);  // nothing submitted after the cancel
}

TEST_CASE("batch: the user's MaxSubmitJobs caps the tasks of the campaign queued at once") {
  Rig rig(experiment("[1, 2, 3, 4, 5, 6, 7]"));
  rig.cluster.limits.max_submit_jobs = 3;
  const auto s = rig.drive(BatchMode::run);
  CHECK(s.succeeded == 7);
  CHECK(rig.cluster.arrays.size() >= 3);
  for (std::size_t i = 0; i < rig.cluster.arrays.size(); ++i) {
    INFO("array " << i);
    CHECK(rig.cluster.arrays[i].tasks.size() + rig.cluster.queued_at_submit[i] <= 3);
  }
  CHECK(rig.cluster.arrays[0].tasks.size() == 3);
}

TEST_CASE("batch: a stop request leaves the queued jobs alone, and a resume picks them up without submitting again") {
  Rig rig(experiment());
  rig.cluster.max_queries = 1;  // the stop request arrives during the first poll
  const auto first = rig.drive(BatchMode::run);
  CHECK(first.interrupted);
  CHECK(rig.cluster.cancelled.empty());
  CHECK(rig.query("SELECT count(*) FROM runs WHERE state = 'running'") == "2");
  rig.stop = false;
  rig.cluster.max_queries = 2000;
  const auto second = rig.drive(BatchMode::run);
  CHECK(second.succeeded == 2);
  CHECK(rig.cluster.submits == 1);
  CHECK(rig.query("SELECT count(*) FROM attempts") == "2");
}
