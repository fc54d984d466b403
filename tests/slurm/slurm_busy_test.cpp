// A queue that is not only ours: other users' jobs, our own other jobs. The driver asks slurmctld
// once per poll cycle, for this user's jobs of this campaign only.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <sstream>
#include <thread>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// Held jobs of user nobody, cancelled when it goes out of scope.
struct ForeignJobs {
  explicit ForeignJobs(int count) {
    const auto r = shell("for i in $(seq " + std::to_string(count) + "); do runuser -u nobody -- sbatch --hold "
                         "--parsable -D /tmp -o /dev/null -J foreign-busy --wrap true || exit 1; done > /dev/null");
    // User nobody must reach the cluster's slurm.conf: a checkout under a directory only root may enter
    // (mktemp -d makes one) cannot run this test.
    INFO("sbatch as nobody: " << r.err);
    REQUIRE(r.exit_code == 0);
  }
  ~ForeignJobs() { shell("scancel -u nobody"); }
};

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

/// The lines printed by the logged calls whose command line starts with `prefix`.
std::vector<std::string> printed_by(const std::string& log, const std::string& prefix) {
  std::vector<std::string> out;
  bool in_block = false;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("> ", 0) == 0) in_block = line.rfind(prefix, 0) == 0;
    else if (in_block) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("with 300 foreign jobs queued, each poll cycle is one squeue of one of the campaign's arrays, by job id", "[solo]") {
  slurm_conf();
  REQUIRE(shell("id -u").out == "0\n");  // other users' jobs are submitted through runuser
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  ForeignJobs foreign(300);
  const std::string own_other = shell("sbatch --hold --parsable -o /dev/null -J other-of-root --wrap true").out;
  // two resource shapes: two arrays, asked about in turn
  box.write("busy.yaml", "name: busy\nexecutor: slurm\nmatrix: {n: [1, 2], tasks: [1, 2]}\n"
                         "resources: {ntasks: '{{tasks}}', time: 5}\n"
                         "workload: {command: 'sleep 2; echo \"value: {{n}}\"'}\n"
                         "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  ::setenv("PATH", logging_slurm(box, {"squeue", "scontrol", "sacct"}).c_str(), 1);
  const auto r = box.sweep({"run", "busy.yaml", "--label", L, "--poll-max", "1"});
  shell("scancel " + own_other);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("4 runs planned, 4 succeeded"));
  REQUIRE(query(box, "SELECT count(*) FROM submissions") == "2");

  const std::string log = e2e::read_file(box.path("slurm.log"));
  INFO(log);
  const auto squeues = lines_starting(log, "> squeue");
  REQUIRE(squeues.size() >= 2);
  // The summary counts the poll cycles; each had exactly one query, and nothing else asked for jobs.
  CHECK_THAT(r.out, Catch::Contains(std::to_string(squeues.size()) + " poll cycles, " + std::to_string(squeues.size()) + " queries"));
  // (the job scripts' own `scontrol show job $SLURM_JOB_ID` for provenance is a job's, not the driver's)
  CHECK(lines_starting(log, "> scontrol -o show job").empty());
  const std::string a1 = query(box, "SELECT job_id FROM submissions WHERE id = 1");
  const std::string a2 = query(box, "SELECT job_id FROM submissions WHERE id = 2");
  std::size_t on_a1 = 0, on_a2 = 0;
  for (const std::string& call : squeues) {
    on_a1 += call.find("-j " + a1 + " ") != std::string::npos;
    on_a2 += call.find("-j " + a2 + " ") != std::string::npos;
  }
  CHECK(on_a1 + on_a2 == squeues.size());  // every query names one array of the campaign by its id
  CHECK(on_a1 > 0);
  CHECK(on_a2 > 0);
  // What came back is the campaign's arrays and nothing else: no foreign job, not root's other job.
  const auto printed = printed_by(log, "> squeue");
  CHECK(!printed.empty());
  for (const std::string& line : printed)
    CHECK_THAT(line, Catch::Contains("|sweep-" + L + "-s1|") || Catch::Contains("|sweep-" + L + "-s2|"));
}

TEST_CASE("a job requeued while it runs is followed: it starts again clean, succeeds, and its restart is recorded") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("rq.yaml", "name: rq\nexecutor: slurm\nmatrix: {n: [1]}\nresources: {time: 5}\n"
                       "workload: {command: 'echo \"start ${SLURM_RESTART_COUNT:-0}\"; sleep 8; echo \"value: 7\"'}\n"
                       "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const int pid = box.spawn_sweep({"run", "rq.yaml", "--label", L, "--poll-max", "1"});
  wait_until([&] { return squeue_field("sweep-" + L + "-", "%T") == "RUNNING"; }, std::chrono::seconds(60),
             "the job to run");
  const std::string job = squeue_field("sweep-" + L + "-", "%i");
  std::this_thread::sleep_for(std::chrono::seconds(2));  // it has written "start 0"
  REQUIRE(shell("scontrol requeue " + job).exit_code == 0);
  // Slurm holds a requeued job back (BeginTime, about two minutes); the test lets it start sooner. Not
  // within the second of the kill: slurmd refuses a credential no newer than the one it revoked ("Job
  // credential revoked"), and the restart would fail on Slurm's side.
  wait_until([&] { return squeue_field("sweep-" + L + "-", "%T") == "PENDING"; }, std::chrono::seconds(30),
             "the job to be pending again");
  std::this_thread::sleep_for(std::chrono::seconds(2));
  REQUIRE(shell("scontrol update JobId=" + job + " StartTime=now").exit_code == 0);
  int status = 0;
  wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::seconds(90), "sweep to finish");
  const std::string err = e2e::read_file(box.path(".sweep.bg.err"));
  INFO(e2e::read_file(box.path(".sweep.bg.out")) << err);
  INFO("attempts: " << query(box, "SELECT group_concat(state || ' ' || failure_class || ': ' || failure_reason, '; ') FROM attempts"));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(err, Catch::Contains("slurmctld requeued job " + job + " (restart 1); following it"));
  CHECK(query(box, "SELECT count(*) || ' ' || max(state) FROM attempts") == "1 succeeded");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.restarts'") == "1");
  CHECK(query(box, "SELECT value FROM metrics WHERE name = 'value'") == "7.0");
  // the second start began with a clean directory: nothing of the first one's output is left
  CHECK(e2e::read_file(query(box, "SELECT run_dir FROM runs") + "/stdout") == "start 1\nvalue: 7\n");
}

TEST_CASE("cpus-per-task reaches every srun task (the job script exports SRUN_CPUS_PER_TASK)") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("cpt.yaml", "name: cpt\nexecutor: slurm\nmatrix: {n: [1]}\nresources: {ntasks: 2, cpus-per-task: 2, time: 5}\n"
                        "workload: {launcher: srun, command: 'printenv SRUN_CPUS_PER_TASK'}\n");
  const auto r = box.sweep({"run", "cpt.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(e2e::read_file(query(box, "SELECT run_dir FROM runs") + "/stdout") == "2\n2\n");
}

TEST_CASE("the user's MaxSubmitJobs from accounting caps what the campaign queues at once", "[solo]") {
  slurm_conf();
  INFO("needs accounting: scripts/slurm-dev-cluster up --accounting (scripts/test starts it so)");
  REQUIRE(shell("sacctmgr -n -P show cluster format=cluster").exit_code == 0);
  struct LimitLifted {
    ~LimitLifted() { shell("sacctmgr -i modify user root set MaxSubmitJobs=-1"); }
  } lifted;
  REQUIRE(shell("sacctmgr -i modify user root set MaxSubmitJobs=3").exit_code == 0);
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("cap.yaml", "name: cap\nexecutor: slurm\nmatrix: {n: [1, 2, 3, 4, 5, 6, 7]}\nresources: {ntasks: 1, time: 5}\n"
                        "workload: {command: 'sleep 1; echo \"value: {{n}}\"'}\n"
                        "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const auto r = box.sweep({"run", "cap.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("7 runs planned, 7 succeeded"));
  CHECK_THAT(r.err, Catch::Contains("the cluster lets this user queue at most 3 jobs (MaxSubmitJobs)"));
  // never more than 3 tasks submitted at once: the first submission holds 3, and none is larger
  CHECK(query(box, "SELECT count(*) FROM submission_tasks WHERE submission_id = 1") == "3");
  CHECK(query(box, "SELECT max(n) FROM (SELECT count(*) AS n FROM submission_tasks GROUP BY submission_id)") == "3");
}
