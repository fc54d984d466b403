// The controller killed with SIGKILL at 20 random moments of a 200-run campaign on the development
// cluster, and started again after each kill. Whatever it was doing (planning, writing scripts, inside
// sbatch, tracking, ingesting), at the end every run succeeded exactly once, each task ran once in Slurm,
// and the metric values equal those of the same campaign run undisturbed.
#include <catch2/catch.hpp>

#include <csignal>
#include <map>
#include <random>
#include <thread>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// 200 points; every execution appends its point id to a ledger shared by all runs, so the ledger counts
/// executions whatever the database says.
std::string two_hundred(const std::string& executor, const std::string& ledger, int sleep_s) {
  return "name: two-hundred\nexecutor: " + executor + "\n"
         "matrix: {a: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19],"
         " b: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}\n"
         "derived: {n: 'a * 10 + b'}\n"
         "resources: {time: 5}\n"
         "workload: {command: 'sleep " + std::to_string(sleep_s) + "; echo \"{{point_id}}\" >> " + ledger + "; echo \"value: {{n}}\"'}\n"
         "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n";
}

/// point id -> value of every succeeded run.
std::map<std::string, double> values(const e2e::Sandbox& box) {
  std::map<std::string, double> out;
  auto db = box.db();
  SQLite::Statement q(db, "SELECT r.point_id, m.value FROM runs r JOIN metrics m ON m.run_id = r.id "
                          "AND m.attempt = r.attempt WHERE r.state = 'succeeded'");
  while (q.executeStep()) out[q.getColumn(0).getString()] = q.getColumn(1).getDouble();
  return out;
}

}  // namespace

TEST_CASE("20 random SIGKILLs of the controller during a 200-run campaign, resumed after each", "[solo]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "k");
  box.write("kill.yaml", two_hundred("slurm", box.path("ledger"), 2));
  const std::vector<std::string> run{"run", "kill.yaml", "--label", L, "--poll-max", "1"};

  const unsigned seed = std::random_device{}();
  INFO("kill moments drawn with seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delay_ms(50, 2500);
  int kills = 0;
  while (kills < 20) {
    const int pid = box.spawn_sweep(run);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {  // it finished before the kill
      INFO(e2e::read_file(box.path(".sweep.bg.err")));
      FAIL("the campaign ended after " << kills << " kills; it must outlast 20");
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ++kills;
  }
  const auto last = box.sweep(run);
  INFO(last.out << last.err);
  REQUIRE(last.exit_code == 0);

  CHECK(query(box, "SELECT count(*) FROM runs") == "200");
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "200");
  CHECK(query(box, "SELECT count(*) FROM attempts WHERE state = 'succeeded'") == "200");
  // each array that reached Slurm was recorded once, under its own job id
  CHECK(query(box, "SELECT count(*) FROM submissions WHERE state = 'submitted'") ==
        query(box, "SELECT count(DISTINCT job_id) FROM submissions WHERE state = 'submitted'"));
  // every point executed exactly once: by the runs' own ledger and by Slurm's job completion record
  const auto executions = e2e::count_lines(box.path("ledger"));
  CHECK(executions.size() == 200);
  for (const auto& [point, n] : executions) {
    INFO("point " << point);
    CHECK(n == 1);
  }
  const auto ran = shell("grep -c ' Name=sweep-" + L + "-s[0-9]* ' " + state_dir() + "/jobcomp.txt");
  CHECK(ran.out == "200\n");

  // the same campaign undisturbed (local executor) gives the same value at every point
  e2e::Sandbox calm;
  calm.write("kill.yaml", two_hundred("local", calm.path("ledger"), 0));
  const auto undisturbed = calm.sweep({"run", "kill.yaml", "--label", "calm", "--jobs", "8"});
  INFO(undisturbed.out << undisturbed.err);
  REQUIRE(undisturbed.exit_code == 0);
  const auto disturbed = values(box);
  CHECK(disturbed.size() == 200);
  CHECK(disturbed == values(calm));
}
