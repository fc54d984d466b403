// The Slurm path as a user sees it (issue 35) on the development cluster: a job Slurm holds pending is
// shown queued with its reason, not running; cancel says how many it cancelled and exits 0; a resume
// with --detach submits the cancelled runs again; --timeout is the jobs' time limit; each run's
// `scontrol show job` is its own task's record; `status --watch` of a detached campaign asks squeue and
// ends; a closed terminal (SIGHUP) says what stays queued; collect reruns a cancelled run only when asked.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <csignal>
#include <regex>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// How many job records (`JobId=` fields) a `scontrol show job` output holds.
std::size_t job_records(const std::string& text) {
  const std::regex id("(^|\\s)JobId=");
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), id), std::sregex_iterator()));
}

/// Drains n1 (the test's NodesRestored puts it back), so that a job that needs it stays pending.
void drain_n1(const std::string& reason) {
  slurm_conf();
  REQUIRE(shell("scontrol update nodename=n1 state=drain reason=" + reason).exit_code == 0);
}

}  // namespace

TEST_CASE("a job held pending by a drained node is queued with its reason, then cancelled and resumed detached", "[solo]") {
  NodesRestored restore;
  drain_n1("sweep-user-path-test");
  e2e::Sandbox box;
  const std::string L = unique_label(box, "u");
  box.write("two.yaml", "name: two\nexecutor: slurm\nmatrix: {n: [1, 2]}\nresources: {nodes: 2, time: 5}\n"
                        "workload: {command: 'echo n={{n}}'}\n");
  const auto detached = box.sweep({"run", "two.yaml", "--label", L, "--detach"});
  INFO(detached.out << detached.err);
  REQUIRE(detached.exit_code == 0);
  CHECK_THAT(detached.out, Catch::Contains("next: sweep status " + L + " --watch") &&
                               Catch::Contains("sweep collect " + L) && Catch::Contains("sweep cancel " + L));

  // collect asks squeue and records what it says; status shows it.
  const auto collected = box.sweep({"collect", L});
  INFO(collected.out << collected.err);
  CHECK(collected.exit_code == 0);
  const auto status = box.sweep({"status", L});
  INFO(status.out);
  CHECK_THAT(status.out, Catch::Contains("running 0, queued 2, pending 0") &&
                             Catch::Contains("queued on the scheduler") && Catch::Contains("PENDING ("));
  CHECK(status.out.find("running now:") == std::string::npos);
  const auto j = nlohmann::json::parse(box.sweep({"status", L, "--format", "json"}).out);
  REQUIRE(j["running"].size() == 2);
  CHECK(j["running"][0]["queued"] == true);
  CHECK(j["running"][0]["scheduler_state"] == "PENDING");
  CHECK_FALSE(j["running"][0]["reason"].get<std::string>().empty());
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE key = 'slurm.phase' AND value = 'queued'") == "2");

  const auto cancelled = box.sweep({"cancel", L});
  INFO(cancelled.out << cancelled.err);
  CHECK(cancelled.exit_code == 0);
  CHECK_THAT(cancelled.out, Catch::Contains("cancelled 1 job array (2 tasks)"));
  CHECK(query(box, "SELECT count(*) FROM runs WHERE failure_class = 'cancelled'") == "2");
  CHECK(squeue_field("sweep-" + L + "-", "%i").empty());

  // A resume with --detach submits the cancelled runs again, as an attached resume does; --timeout is
  // their time limit.
  REQUIRE(shell("scontrol update nodename=n1 state=resume").exit_code == 0);
  const auto resumed = box.sweep({"run", "--resume", L, "--detach", "--timeout", "120"});
  INFO(resumed.out << resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK_THAT(resumed.out, Catch::Contains("(2 attempts started now)"));
  const auto array = shell("tail -q -n +1 " + box.path("results/" + L) + "/.submissions/*/array.sh | grep -c -- '--time=00:02:00'");
  CHECK(array.out == "1\n");
  // --watch of a detached campaign asks squeue itself, and ends once Slurm holds none of its jobs.
  const auto watched = shell("cd " + box.path("") + " && timeout 120 " + SWEEP_BIN + " status " + L + " --watch --interval 1");
  INFO(watched.out << watched.err);
  CHECK(watched.exit_code == 0);
  CHECK_THAT(watched.err, Catch::Contains("is detached and no sweep drives it now") &&
                              Catch::Contains("holds none of campaign " + L + "'s jobs now; sweep collect " + L));
  const auto finished = box.sweep({"run", "--resume", L, "--poll-max", "1"});
  INFO(finished.out << finished.err);
  CHECK(finished.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded' AND attempt = 2") == "2");
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE key = 'slurm.options' AND value LIKE '%--time=00:02:00%'") == "2");
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE key = 'slurm.phase' AND value = 'ended'") == "2");
  // Each run's provenance holds its own task's record, also the task whose id is the array's.
  for (const auto& row : rows_of(box, "SELECT value FROM run_provenance WHERE key = 'job.scontrol_show_job'")) {
    INFO(row[0]);
    CHECK(job_records(row[0]) == 1);
  }
}

TEST_CASE("a closed terminal (SIGHUP) stops an attached run and says that its jobs stay queued", "[solo]") {
  NodesRestored restore;
  drain_n1("sweep-sighup-test");
  e2e::Sandbox box;
  const std::string L = unique_label(box, "h");
  box.write("held.yaml", "name: held\nexecutor: slurm\nmatrix: {n: [1]}\nresources: {time: 5, extra: [--nodelist=n1]}\n"
                         "workload: {command: 'true'}\n");
  const int pid = box.spawn_sweep({"run", "held.yaml", "--label", L, "--poll-max", "1"});
  wait_until([&] { return !squeue_field("sweep-" + L + "-", "%i").empty(); }, std::chrono::seconds(60), "the job to be queued");
  ::kill(pid, SIGHUP);
  int status = 0;
  wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::seconds(60), "sweep to stop");
  const std::string err = e2e::read_file(box.path(".sweep.bg.err"));
  INFO(e2e::read_file(box.path(".sweep.bg.out")) << err);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK_THAT(err, Catch::Contains("the terminal closed (SIGHUP)") &&
                      Catch::Contains("1 task on the scheduler stays queued and runs") && Catch::Contains("sweep cancel " + L));
  CHECK_FALSE(squeue_field("sweep-" + L + "-", "%i").empty());  // nothing was cancelled
  const auto cancelled = box.sweep({"cancel", L});
  CHECK(cancelled.exit_code == 0);
  CHECK_THAT(cancelled.out, Catch::Contains("cancelled 1 job array (1 task)"));
  // collect (from cron) leaves a cancelled run alone; --rerun-failed submits it once more.
  const auto collected = box.sweep({"collect", L});
  CHECK_THAT(collected.out, Catch::Contains("(0 attempts started now)"));
  const auto rerun = box.sweep({"collect", L, "--rerun-failed"});
  INFO(rerun.out << rerun.err);
  CHECK_THAT(rerun.out, Catch::Contains("(1 attempts started now)"));
  CHECK(query(box, "SELECT attempt FROM runs") == "2");
  CHECK_THAT(box.sweep({"cancel", L}).out, Catch::Contains("cancelled 1 job array (1 task)"));
}
