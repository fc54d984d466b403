// The controller's crash and outage contracts on the development cluster: SIGKILL at the worst
// moment (inside sbatch) then --resume, and a slurmctld restart followed by a node's slurmd killed during
// a campaign (a controller that does not answer for a while is waited out: tests/unit/runner/batch_track_test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

constexpr const char* kSix = "name: six\nexecutor: slurm\nmatrix: {n: [1, 2, 3, 4, 5, 6]}\nresources: {time: 5}\n"
                             "workload: {command: 'sleep 1; echo \"value: {{n}}\"'}\n"
                             "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n";

/// Every planned run succeeded exactly once, and every sbatch call gave one submission.
void check_exactly_once(const e2e::Sandbox& box, const std::string& label) {
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "6");
  CHECK(query(box, "SELECT count(*) FROM attempts WHERE state = 'succeeded'") == "6");
  CHECK(query(box, "SELECT sum(value) FROM metrics WHERE name = 'value'") == "21.0");  // the workload's (telemetry's metrics beside it)
  const std::string log = e2e::read_file(box.path("sbatch.log"));
  const std::string calls = std::to_string(std::count(log.begin(), log.end(), '\n'));
  CHECK(query(box, "SELECT count(*) FROM submissions WHERE state = 'submitted'") == calls);
  CHECK(query(box, "SELECT count(DISTINCT job_id) FROM submissions WHERE state = 'submitted'") == calls);
  // Slurm's own record: one array job per submission, each task run once
  const auto ran = shell("grep -c ' Name=sweep-" + label + "-s.* ArrayJobId=' " + state_dir() + "/jobcomp.txt");
  CHECK(ran.out == "6\n");
}

}  // namespace

TEST_CASE("SIGKILL inside sbatch, then --resume: the array that reached Slurm is adopted, none is submitted twice") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("six.yaml", kSix);
  ::setenv("PATH", counting_sbatch(box).c_str(), 1);
  ::setenv("SWEEP_TEST_SBATCH_DELAY", "2", 1);
  const int pid = box.spawn_sweep({"run", "six.yaml", "--label", L, "--poll-max", "1"});
  wait_until([&] { return query(box, "SELECT state FROM submissions") == "submitting"; }, std::chrono::seconds(30),
             "the submission to be recorded before sbatch answers");
  // sbatch itself started (killed before that, the resume rightly resubmits: the next test's case).
  wait_until([&] { return !e2e::read_file(box.path("sbatch.pid")).empty(); }, std::chrono::seconds(30), "sbatch to start");
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  // Resumed at once: the orphaned sbatch is still asleep, and reaches Slurm only after the resume began.
  ::setenv("SWEEP_TEST_SBATCH_DELAY", "0", 1);
  const auto r = box.sweep({"run", "--resume", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  check_exactly_once(box, L);
  CHECK(query(box, "SELECT count(*) FROM submissions") == "1");  // adopted, not resubmitted
}

TEST_CASE("SIGKILL of the controller and of sbatch before it reached Slurm, then --resume resubmits once") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("six.yaml", kSix);
  ::setenv("PATH", counting_sbatch(box).c_str(), 1);
  ::setenv("SWEEP_TEST_SBATCH_DELAY", "5", 1);
  const int pid = box.spawn_sweep({"run", "six.yaml", "--label", L, "--poll-max", "1"});
  wait_until([&] { return !e2e::read_file(box.path("sbatch.pid")).empty(); }, std::chrono::seconds(30), "sbatch to start");
  ::kill(pid, SIGKILL);
  ::kill(std::atoi(e2e::read_file(box.path("sbatch.pid")).c_str()), SIGKILL);
  ::waitpid(pid, nullptr, 0);
  std::filesystem::remove(box.path("sbatch.log"));  // that call never reached Slurm
  ::setenv("SWEEP_TEST_SBATCH_DELAY", "0", 1);
  const auto r = box.sweep({"run", "--resume", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  check_exactly_once(box, L);
  CHECK(query(box, "SELECT count(*) FROM submissions WHERE state = 'failed'") == "1");
  CHECK(query(box, "SELECT count(*) FROM attempts WHERE failure_class = 'interrupted'") == "6");
}

TEST_CASE("SIGINT stops the controller but not the queued jobs, and --resume picks them up") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("six.yaml", kSix);
  ::setenv("PATH", counting_sbatch(box).c_str(), 1);
  const int pid = box.spawn_sweep({"run", "six.yaml", "--label", L, "--poll-max", "1"});
  wait_until([&] { return query(box, "SELECT state FROM submissions") == "submitted"; }, std::chrono::seconds(30),
             "the array to be submitted");
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WEXITSTATUS(status) == 130);
  CHECK_THAT(e2e::read_file(box.path(".sweep.bg.err")), Catch::Contains("resume with: sweep run --resume " + L));
  const auto r = box.sweep({"run", "--resume", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  check_exactly_once(box, L);
  CHECK(query(box, "SELECT count(*) FROM submissions") == "1");
}

TEST_CASE("slurmctld restarted and slurmd of n1 killed mid-campaign: NODE_FAIL runs retried, campaign completes", "[solo]") {
  slurm_conf();
  NodesRestored restore;
  struct ClusterRestored {  // whatever happens, the next test finds every daemon up
    ~ClusterRestored() { shell(std::string(SWEEP_SOURCE_DIR) + "/scripts/slurm-dev-cluster up"); }
  } cluster_restored;
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  // A first attempt on n1 never ends on its own (its node is about to lose its slurmd); every other run
  // takes 2 s and records itself in a ledger.
  box.write("loss.yaml", "name: loss\nexecutor: slurm\nmatrix: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}\n"
                         "retries: {NODE_FAIL: 2}\nresources: {time: 5, requeue: false}\n"  // sweep retries, not Slurm
                         "workload: {command: 'if [ \"$SWEEP_ATTEMPT\" = 1 ] && [ \"$(hostname)\" = n1 ]; then "
                         "sleep 300; exit 1; fi; sleep 2; echo \"{{n}}\" >> " + box.path("ledger") +
                         "; echo \"value: {{n}}\"'}\n"
                         "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const int pid = box.spawn_sweep({"run", "loss.yaml", "--label", L, "--poll-max", "2"});
  wait_until([&] { return shell("squeue -h -w n1 -t RUNNING -o %j | grep -c '^sweep-" + L + "-'").out != "0\n"; },
             std::chrono::seconds(60), "a task to run on n1");

  // Down for longer than scontrol's own retries (MessageTimeout, 10 s), so the controller sees it gone.
  REQUIRE(shell("kill $(cat " + state_dir() + "/pids/slurmctld.pid)").exit_code == 0);
  std::this_thread::sleep_for(std::chrono::seconds(20));
  const auto ctld = shell(std::string(SWEEP_SOURCE_DIR) + "/scripts/slurm-dev-cluster up");
  INFO(ctld.err);
  REQUIRE(ctld.exit_code == 0);

  REQUIRE(shell("kill -KILL $(cat " + state_dir() + "/pids/slurmd-n1.pid)").exit_code == 0);
  // slurmctld declares n1 DOWN after SlurmdTimeout (30 s) and fails its jobs as NODE_FAIL
  wait_until([&] { return shell("sinfo -h -n n1 -o %t").out.rfind("down", 0) == 0; }, std::chrono::seconds(90),
             "n1 to be declared down");
  const auto back = shell(std::string(SWEEP_SOURCE_DIR) + "/scripts/slurm-dev-cluster up");  // n1 returns
  INFO(back.err);
  REQUIRE(back.exit_code == 0);

  int status = 0;
  wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::seconds(180), "sweep to finish");
  const std::string err = e2e::read_file(box.path(".sweep.bg.err"));
  INFO(e2e::read_file(box.path(".sweep.bg.out")) << err);
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(err, Catch::Contains("cannot reach slurmctld"));
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "12");
  CHECK(query(box, "SELECT sum(value) FROM metrics WHERE name = 'value'") == "78.0");
  // the runs caught on n1 failed as node_fail, and their retry succeeded
  const std::string failed = query(box, "SELECT count(*) FROM attempts WHERE failure_class = 'node_fail'");
  CHECK(failed != "0");
  CHECK(query(box, "SELECT count(*) FROM attempts WHERE state = 'failed'") == failed);
  CHECK(query(box, "SELECT count(*) FROM attempts a JOIN attempts b ON b.run_id = a.run_id AND b.attempt = a.attempt + 1 "
                   "WHERE a.failure_class = 'node_fail' AND b.state = 'succeeded'") == failed);
  const auto executions = e2e::count_lines(box.path("ledger"));
  CHECK(executions.size() == 12);
  for (const auto& [n, count] : executions) CHECK(count == 1);
}
