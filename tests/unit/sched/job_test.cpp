// sched/job.h: what every scheduler's records share.
#include <catch2/catch.hpp>

#include "sched/job.h"

using namespace sweep::sched;

TEST_CASE("array task ranges expand, with steps of a throttle ignored, malformed ones to nothing") {
  CHECK(expand_task_ids("0-3%2") == std::vector<int>{0, 1, 2, 3});
  CHECK(expand_task_ids("1,3,5-7") == std::vector<int>{1, 3, 5, 6, 7});
  CHECK(expand_task_ids("4") == std::vector<int>{4});
  CHECK(expand_task_ids("3-1").empty());
  CHECK(expand_task_ids("a").empty());
  CHECK(expand_task_ids("0-99999999").empty());  // a range too large to be one of ours
  CHECK(expand_task_ids("0-600000,0-600000").empty());  // ... all parts together
  CHECK(expand_task_ids("0-999999,5").size() == 1'000'001);
}

TEST_CASE("a record is one array task only when its task field is one number") {
  JobRecord r;
  r.array_tasks = "7";
  CHECK(r.task_id() == 7);
  r.array_tasks = "0-3";
  CHECK(!r.task_id());
  r.array_tasks = "";
  CHECK(!r.task_id());
  CHECK(parse_count("10001") == std::optional<std::size_t>(10001));
  CHECK(!parse_count("UNLIMITED"));
  CHECK(!parse_count(""));
}

TEST_CASE("index_by_task: a task's own record, a pending range's record for the rest, no array left out") {
  JobRecord range;  // the array's pending remainder, not split yet
  range.array_job_id = "41";
  range.array_tasks = "0-3";
  range.state = "PENDING";
  JobRecord own = range;  // task 2, started: a record of its own
  own.array_tasks = "2";
  own.state = "RUNNING";
  JobRecord plain;  // a job of no array
  plain.job_id = "50";
  const std::vector<JobRecord> records{own, range, plain};
  const auto index = index_by_task(records);
  REQUIRE(index.size() == 4);
  CHECK(index.at({"41", 2})->state == "RUNNING");
  CHECK(index.at({"41", 0})->state == "PENDING");
  CHECK(index.at({"41", 3}) == &records[1]);
  CHECK(index.count({"50", 0}) == 0);
}
