// Failure classes and retries on the development cluster: FAILED, TIMEOUT with an escalated retry, NODE_FAIL with a retry,
// a request that can never be satisfied, and a submission sbatch refuses.
#include <catch2/catch.hpp>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

// One wait for Slurm's time limit (a minute at the least) serves both: TIMEOUT as Slurm ends it, with
// the last line the run printed, and the escalated retry. The retry's workload returns at once, so no
// second time limit is waited for; that it got twice the time is in its script and provenance.
TEST_CASE("an exit code of 3 is FAILED without retry and a run over its time limit is TIMEOUT then retried with twice the time") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("f.yaml", "name: f\nexecutor: slurm\nmatrix: {mode: [fail, slow]}\nresources: {time: 1}\n"
                      "retries: {TIMEOUT: 2, NODE_FAIL: 2}\nescalate: {time: {factor: 2, max: 3}}\n"
                      "workload: {command: 'if [ {{mode}} = fail ]; then exit 3; fi; if [ \"$SWEEP_ATTEMPT\" = 1 ]; then "
                      "echo waiting for rank 1 at the rendezvous >&2; sleep 600; fi; echo \"value: 1\"'}\n"
                      "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const auto r = box.sweep({"run", "f.yaml", "--label", L, "--poll-max", "2"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const auto of = [&](const std::string& mode, const std::string& what) {
    return query(box, "SELECT " + what + " FROM attempts a JOIN runs r ON r.id = a.run_id JOIN point_params p ON "
                      "p.point_id = r.point_id WHERE p.value = '" + mode + "' ORDER BY a.attempt");
  };
  CHECK(of("fail", "group_concat(a.attempt || ':' || a.failure_class || ' ' || a.exit_code, ' ')") == "1:exit_code 3");
  CHECK(of("slow", "group_concat(a.attempt || ':' || a.state || ':' || coalesce(a.failure_class, ''), ' ')") ==
        "1:failed:timeout 2:succeeded:");
  // A hung rendezvous shows the last line it printed (issue 33: evidence in every failure).
  // (The campaign's summary names only runs that failed in the end: the failed attempt's evidence is in
  // the database and `sweep show`.)
  CHECK_THAT(of("slow", "a.failure_reason"), Catch::Contains("waiting for rank 1 at the rendezvous"));
  CHECK(query(box, "SELECT value FROM run_provenance WHERE attempt = 1 AND key = 'slurm.state' AND value = 'TIMEOUT'") == "TIMEOUT");
  CHECK(query(box, "SELECT group_concat(DISTINCT value) FROM run_provenance WHERE attempt = 1 AND key = 'slurm.options'") == "--time=1");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE attempt = 2 AND key = 'slurm.options'") == "--time=00:02:00");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE attempt = 2 AND key = 'slurm.escalated'") ==
        "time=00:02:00 after 1 timeout");
  CHECK(query(box, "SELECT count(*) FROM run_provenance WHERE attempt = 1 AND key = 'slurm.escalated'") == "0");
  const std::string second = query(box, "SELECT dir FROM submissions WHERE id = 2");
  CHECK_THAT(e2e::read_file(second + "/array.sh"), Catch::Contains("#SBATCH --time=00:02:00\n"));
}

TEST_CASE("a node that goes down mid-job is NODE_FAIL, retried on the other node, and succeeds on attempt 2", "[solo]") {
  slurm_conf();
  NodesRestored restore;
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("nf.yaml", "name: nf\nexecutor: slurm\nmatrix: {n: [1]}\nretries: {NODE_FAIL: 1}\n"
                       "resources: {time: 5, requeue: false}\n"  // sweep retries, Slurm does not requeue
                       "workload: {command: 'if [ \"$SWEEP_ATTEMPT\" = 1 ]; then sleep 300; fi; hostname'}\n");
  const int pid = box.spawn_sweep({"run", "nf.yaml", "--label", L, "--poll-max", "1"});
  std::string node;
  wait_until([&] {
    const std::string s = squeue_field("sweep-" + L + "-", "%T %N");
    if (s.rfind("RUNNING ", 0) == 0) node = s.substr(8);
    return !node.empty();
  }, std::chrono::seconds(60), "the first attempt to run");
  // Down kills the job as NODE_FAIL; drain keeps the node out until the test puts it back (the
  // cluster's ReturnToService=2 would otherwise return a live slurmd to service at once).
  REQUIRE(shell("scontrol update nodename=" + node + " state=down reason=sweep-node-fail-test && "
                "scontrol update nodename=" + node + " state=drain reason=sweep-node-fail-test").exit_code == 0);
  int status = 0;
  wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, std::chrono::seconds(120), "sweep to finish");
  INFO(e2e::read_file(box.path(".sweep.bg.out")) << e2e::read_file(box.path(".sweep.bg.err")));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(query(box, "SELECT failure_class FROM attempts WHERE attempt = 1") == "node_fail");
  CHECK(query(box, "SELECT state FROM attempts WHERE attempt = 2") == "succeeded");
  const std::string other = node == "n1" ? "n2" : "n1";
  CHECK(query(box, "SELECT value FROM run_provenance WHERE attempt = 2 AND key = 'slurm.node_list'") == other);
  CHECK(e2e::read_file(query(box, "SELECT run_dir FROM runs") + "/stdout") == other + "\n");
}

TEST_CASE("a job pending for a reason that cannot resolve is cancelled after --max-pending and reported", "[solo]") {
  slurm_conf();
  NodesRestored restore;
  REQUIRE(shell("scontrol update nodename=n1 state=drain reason=sweep-pending-test").exit_code == 0);
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("p.yaml", "name: p\nexecutor: slurm\nmatrix: {n: [1]}\nresources: {time: 5, extra: [--nodelist=n1]}\n"
                      "workload: {command: 'true'}\n");
  const auto r = box.sweep({"run", "p.yaml", "--label", L, "--max-pending", "3", "--poll-max", "1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(query(box, "SELECT failure_class FROM runs") == "unsatisfiable");
  CHECK_THAT(query(box, "SELECT failure_reason FROM runs"), Catch::Contains("ReqNodeNotAvail"));
  CHECK(squeue_field("sweep-" + L + "-", "%i").empty());
}

TEST_CASE("a submission sbatch refuses fails its runs with sbatch's message") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("bad.yaml", "name: bad\nexecutor: slurm\nmatrix: {n: [1, 2]}\nresources: {partition: nosuch}\n"
                        "workload: {command: 'true'}\n");
  const auto r = box.sweep({"run", "bad.yaml", "--label", L});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE failure_class = 'submit'") == "2");
  CHECK_THAT(query(box, "SELECT failure_reason FROM runs"), Catch::Contains("nosuch") || Catch::Contains("partition"));
  CHECK(query(box, "SELECT state FROM submissions") == "failed");
}
