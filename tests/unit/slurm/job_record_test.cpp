// Parsing of Slurm 22.05's job records. The lines are real output of squeue, the jobcomp/filetxt
// plugin and sacct on the project's development cluster (scripts/slurm-dev-cluster), cut where marked.
#include <catch2/catch.hpp>

#include "slurm/job_record.h"

using namespace sweep::slurm;

TEST_CASE("squeue -O: plain jobs, array tasks, a pending range, wait statuses and restarts") {
  // `squeue -h -t all -u root -O <kSqueueFormat>` on the development cluster: `exit 3`, `kill -9 $$`,
  // an array task that ran after one `scontrol requeue`, and a held array of four tasks.
  const auto jobs = parse_squeue(
      "752|752|N/A|wrap|FAILED|768|0|n1|debug|2026-11-25T12:31:40|2026-11-25T12:31:40|0:00|NonZeroExitCode|\n"
      "753|753|N/A|wrap|FAILED|9|0|n1|debug|2026-11-25T12:31:40|2026-11-25T12:31:40|0:00|JobLaunchFailure|\n"
      "729|727|1|sweep-t-S2yPYV-s1|COMPLETED|0|1|n[1-2]|debug|2026-11-25T10:39:12|2026-11-25T10:39:13|1-00:00:01|None|\n"
      "754|754|0-3%2|sweep-c-s2|PENDING|0|0||debug|N/A|N/A|0:00|ReqNodeNotAvail, UnavailableNodes:n2|\n");
  REQUIRE(jobs.size() == 4);
  CHECK(jobs[0].array_job_id.empty());
  CHECK(jobs[0].exit_code == 3);
  CHECK(jobs[0].signal == 0);
  CHECK(jobs[1].exit_code == 0);
  CHECK(jobs[1].signal == 9);
  CHECK(jobs[2].job_id == "729");
  CHECK(jobs[2].array_job_id == "727");
  CHECK(jobs[2].task_id() == 1);
  CHECK(jobs[2].restarts == 1);
  CHECK(jobs[2].elapsed_s == 86401.0);
  CHECK(jobs[2].node_list == "n[1-2]");
  CHECK(jobs[2].name == "sweep-t-S2yPYV-s1");
  CHECK(!jobs[3].task_id());
  CHECK(expand_task_ids(jobs[3].array_tasks) == std::vector<int>{0, 1, 2, 3});
  CHECK(jobs[3].reason == "ReqNodeNotAvail, UnavailableNodes:n2");
  CHECK(parse_squeue("").empty());
  CHECK(parse_squeue("squeue: error: Invalid user: x\n").empty());
}

TEST_CASE("jobcomp/filetxt: Name instead of JobName, trailing space, array fields at the end") {
  const auto jobs = parse_jobcomp(
      "JobId=8 UserId=root(0) GroupId=root(0) Name=wrap JobState=FAILED Partition=debug TimeLimit=UNLIMITED "
      "StartTime=2026-11-22T22:00:15 EndTime=2026-11-22T22:00:16 NodeList=n1 NodeCnt=1 ProcCnt=1 WorkDir=/tmp/sdc "
      "ReservationName= Tres=cpu=1,mem=100M,node=1,billing=1 Account= QOS= WcKey= Cluster=unknown "
      "SubmitTime=2026-11-22T22:00:15 EligibleTime=2026-11-22T22:00:15 ArrayJobId=5 ArrayTaskId=2 "
      "DerivedExitCode=0:0 ExitCode=3:0 \n");
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].name == "wrap");
  CHECK(jobs[0].array_job_id == "5");
  CHECK(jobs[0].task_id() == 2);
  CHECK(jobs[0].exit_code == 3);
}

TEST_CASE("sacct -P: array tasks as JOB_TASK, qualifiers after the state, pending ranges in brackets") {
  const auto jobs = parse_sacct(
      "12_1|15|sweep-c-s1|FAILED|3:0|n1|2026-11-22T22:00:15|2026-11-22T22:00:16|1|None|debug\n"
      "12_2|12|sweep-c-s1|CANCELLED by 0|0:15|n2|2026-11-22T22:00:15|2026-11-22T22:00:20|5|None|debug\n"
      "12_[3-5%2]|12|sweep-c-s1|PENDING|0:0|None assigned|Unknown|Unknown|0|Priority|debug\n"
      "bad line\n");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].job_id == "15");
  CHECK(jobs[0].array_job_id == "12");
  CHECK(jobs[0].task_id() == 1);
  CHECK(jobs[0].exit_code == 3);
  CHECK(jobs[1].state == "CANCELLED");
  CHECK(jobs[1].signal == 15);
  CHECK(jobs[1].elapsed_s == 5.0);
  CHECK(expand_task_ids(jobs[2].array_tasks) == std::vector<int>{3, 4, 5});
}

TEST_CASE("durations and task ranges") {
  CHECK(parse_duration("00:01:24") == 84.0);
  CHECK(parse_duration("1-02:00:00") == 93600.0);
  CHECK(parse_duration("05:07") == 307.0);
  CHECK(!parse_duration("x"));
  CHECK(!parse_duration("1:2:3:4"));
  CHECK(expand_task_ids("1,3,5-7") == std::vector<int>{1, 3, 5, 6, 7});
  CHECK(expand_task_ids("4") == std::vector<int>{4});
  CHECK(expand_task_ids("7-3").empty());
  CHECK(expand_task_ids("a-b").empty());
}
