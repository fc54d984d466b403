#include <catch2/catch.hpp>

#include "runner/launchers.h"
#include "runner/poll_backoff.h"
#include "runner/array_script.h"
#include "runner/executors.h"
#include "sched/executors.h"
#include <fmt/core.h>

#include "exec/capture.h"
#include "util/error.h"
#include "util/strings.h"

using namespace sweep;
using namespace sweep::runner;

TEST_CASE("array ranges and the task table") {
  CHECK(array_range(1, 0) == "0");
  CHECK(array_range(12, 2) == "0-11%2");
  CHECK(array_range(1000, 0) == "0-999");
  CHECK(task_table({{0, "/r/a/rep0/attempt1", 7, 1}, {1, "/r/b/rep0/attempt2", 9, 2}}) ==
        "# sweep task table, format 1: task\trun_dir\trun_id\tattempt\n0\t/r/a/rep0/attempt1\t7\t1\n"
        "1\t/r/b/rep0/attempt2\t9\t2\n");
}

TEST_CASE("launchers contribute only the words before the command") {
  spec::Workload w;
  CHECK(launch_prefix(w).empty());
  w.launcher = "srun";
  CHECK(launch_prefix(w) == "srun ");
  w.mpi = "pmix";
  CHECK(launch_prefix(w) == "srun --mpi=pmix ");
  w.launcher = "mpirun";
  CHECK(launch_prefix(w) == "mpirun ");
  w.launcher = "torchrun-env";
  const std::string t = launch_prefix(w);
  CHECK_THAT(t, Catch::StartsWith("MASTER_ADDR=$(") && Catch::Contains(" srun --mpi=pmix bash -c '") &&
                    Catch::EndsWith("' torchrun-env "));
  for (const char* var : {"RANK=$SLURM_PROCID", "WORLD_SIZE=$SLURM_NTASKS", "LOCAL_RANK=$SLURM_LOCALID",
                          "GROUP_RANK=$SLURM_NODEID", "NODE_RANK=$SLURM_NODEID", "scontrol -o show node",
                          "NodeAddr=", "MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))"})
    CHECK_THAT(t, Catch::Contains(var));
  w.launcher = "nope";
  CHECK_THROWS_AS(launch_prefix(w), Error);
}

TEST_CASE("the local executor refuses the launchers that need a Slurm allocation") {
  spec::Workload w;
  for (const char* name : {"local", "mpirun"}) {
    w.launcher = name;
    CHECK_FALSE(launcher_refusal(w, "local"));
    CHECK_FALSE(launcher_refusal(w, "slurm"));
  }
  for (const char* name : {"srun", "torchrun-env"}) {
    w.launcher = name;
    CHECK_FALSE(launcher_refusal(w, "slurm"));
    const auto refusal = launcher_refusal(w, "local");
    REQUIRE(refusal);
    CHECK_THAT(*refusal, Catch::StartsWith(std::string("launcher ") + name + " starts the workload's tasks inside a "
                                           "Slurm allocation, which the local executor does not make"));
  }
}

TEST_CASE("torchrun-env's tasks export LOCAL_WORLD_SIZE from their node's entry of the step's task counts") {
  spec::Workload w;
  w.launcher = "torchrun-env";
  const std::string prefix = launch_prefix(w);
  // The per-task part, run by bash here as srun would run it on each task.
  const std::string task_part = prefix.substr(prefix.find("bash -c "));
  const auto local_world_size = [&](const std::string& per_node, int node) {
    const std::string script = fmt::format(
        "export SLURM_STEP_TASKS_PER_NODE='{}' SLURM_NODEID={} SLURM_PROCID=5 SLURM_NTASKS=9 SLURM_LOCALID=1; "
        "{} sh -c 'echo $LOCAL_WORLD_SIZE $NODE_RANK $GROUP_RANK $RANK $WORLD_SIZE $LOCAL_RANK'",
        per_node, node, task_part);
    const auto r = exec::capture({"bash", "-c", script});
    REQUIRE(r);
    return std::string(trim(r->out));
  };
  CHECK(local_world_size("4", 0) == "4 0 0 5 9 1");
  CHECK(local_world_size("2(x3),1", 0) == "2 0 0 5 9 1");
  CHECK(local_world_size("2(x3),1", 2) == "2 2 2 5 9 1");
  CHECK(local_world_size("2(x3),1", 3) == "1 3 3 5 9 1");
  CHECK(local_world_size("3,1(x2),2", 2) == "1 2 2 5 9 1");
  CHECK(local_world_size("3,1(x2),2", 3) == "2 3 3 5 9 1");
}

TEST_CASE("the poll interval backs off while nothing changes and respects its floor and maximum") {
  PollBackoff b(1, 4);
  CHECK(b.interval() == 1);
  b.after_cycle(false);
  CHECK(b.interval() == 1.5);
  for (int i = 0; i < 10; ++i) b.after_cycle(false);
  CHECK(b.interval() == 4);
  b.after_cycle(true);
  CHECK(b.interval() == 1);
  PollBackoff odd(5, 2);  // a maximum below the floor is raised to it
  odd.after_cycle(false);
  CHECK(odd.interval() == 5);
}

TEST_CASE("every batch executor of the table has a scheduler, named as the executor") {
  for (const sched::Executor& e : sched::kExecutors) {
    if (!e.batch) continue;
    INFO(e.name);
    const auto scheduler = make_scheduler(e.name);
    REQUIRE(scheduler);
    CHECK(scheduler->name() == e.name);
  }
  CHECK_THROWS_AS(make_scheduler("local"), Error);
}
