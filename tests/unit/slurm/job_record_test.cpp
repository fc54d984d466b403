// Parsing of Slurm 22.05's job records. The lines are real output of scontrol, the jobcomp/filetxt
// plugin and sacct on the project's development cluster (scripts/slurm-dev-cluster), cut where marked.
#include <catch2/catch.hpp>

#include "slurm/job_record.h"

using namespace sweep::slurm;

TEST_CASE("scontrol -o: an array task, with exit code, times and node list") {
  const auto jobs = parse_scontrol(
      "JobId=8 ArrayJobId=5 ArrayTaskId=2 JobName=wrap UserId=root(0) GroupId=root(0) MCS_label=N/A "
      "Priority=4294901755 Nice=0 Account=(null) QOS=(null) JobState=FAILED Reason=NonZeroExitCode "
      "Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:01 "
      "TimeLimit=UNLIMITED StartTime=2026-11-22T22:00:15 EndTime=2026-11-22T22:00:16 Partition=debug "
      "AllocNode:Sid=host:42 NodeList=n1 BatchHost=n1 StdOut=/tmp/sdc/arr-5_2.txt Power=\n");
  REQUIRE(jobs.size() == 1);
  const JobRecord& j = jobs[0];
  CHECK(j.job_id == "8");
  CHECK(j.array_job_id == "5");
  CHECK(j.task_id() == 2);
  CHECK(j.name == "wrap");
  CHECK(j.state == "FAILED");
  CHECK(j.reason == "NonZeroExitCode");
  CHECK(j.exit_code == 3);
  CHECK(j.signal == 0);
  CHECK(j.elapsed_s == 1.0);
  CHECK(j.node_list == "n1");
  CHECK(j.partition == "debug");
  CHECK(j.start == "2026-11-22T22:00:15");
}

TEST_CASE("scontrol -o: a pending array not yet split is one record covering a range of tasks") {
  const auto jobs = parse_scontrol(
      "JobId=18 ArrayJobId=18 ArrayTaskId=0-3%2 ArrayTaskThrottle=2 JobName=sweep-c-s1 JobState=PENDING "
      "Reason=ReqNodeNotAvail, UnavailableNodes:n1 Dependency=(null) ExitCode=0:0\n"
      "JobId=20 JobName=plain JobState=RUNNING Reason=None ExitCode=0:0\n");
  REQUIRE(jobs.size() == 2);
  CHECK(!jobs[0].task_id());
  CHECK(expand_task_ids(jobs[0].array_tasks) == std::vector<int>{0, 1, 2, 3});
  CHECK(jobs[0].reason == "ReqNodeNotAvail, UnavailableNodes:n1");  // a value with a space
  CHECK(jobs[1].array_job_id.empty());
  CHECK(parse_scontrol("No jobs in the system\n").empty());
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
