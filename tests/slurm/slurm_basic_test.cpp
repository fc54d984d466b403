// The Slurm executor against the development cluster: MPI across nodes, job arrays with a throttle,
// detach/collect/report, status and cancel.
#include <catch2/catch.hpp>

#include <set>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("a 2-node, 2-tasks-per-node srun --mpi=pmix job sees 4 ranks on 2 hosts with 2 GPUs each") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("mpi.yaml", std::string("name: mpi\nexecutor: slurm\nmatrix: {nodes: [2]}\n"
                                    "resources: {nodes: \"{{nodes}}\", ntasks-per-node: 2, gres: \"gpu:2\", time: 5}\n"
                                    "workload: {launcher: srun, mpi: pmix, command: ") + MPI_HELLO + "}\n");
  const auto r = box.sweep({"run", "mpi.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = query(box, "SELECT run_dir FROM runs");
  const std::string out = e2e::read_file(dir + "/stdout");
  INFO(out);
  std::set<std::pair<std::string, std::string>> pairs;
  std::set<std::string> hosts;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    char host[64] = {}, gpus[64] = {};
    int rank = -1, size = -1, sum = -1;
    if (std::sscanf(line.c_str(), "rank %d of %d on %63s gpus=%63s ranksum=%d", &rank, &size, host, gpus, &sum) != 5) continue;
    CHECK(size == 4);
    CHECK(sum == 0 + 1 + 2 + 3);
    CHECK(std::string(gpus).size() == 3);  // two devices, e.g. "0,1"
    pairs.insert({host, std::to_string(rank)});
    hosts.insert(host);
  }
  CHECK(pairs.size() == 4);
  CHECK(hosts == std::set<std::string>{"n1", "n2"});
  // provenance recorded by the job script and by the controller
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.node_list'") == "n[1-2]");
  CHECK_THAT(query(box, "SELECT value FROM run_provenance WHERE key = 'job.nodes'"),
             Catch::Contains("n1 cpu=") && Catch::Contains("n2 cpu="));
  CHECK_THAT(query(box, "SELECT value FROM run_provenance WHERE key = 'job.scontrol_show_job'"),
             Catch::Contains("NumNodes=2"));
  CHECK_THAT(query(box, "SELECT value FROM run_provenance WHERE key = 'job.mpi_version'"), Catch::Contains("Open MPI"));
  // The NCCL the node's loader finds (the emulated nodes are this machine), as ncclGetVersion reports it.
  const auto nccl = e2e::shell(NCCL_VERSION_BIN);
  INFO("nccl-version: " << nccl.out << nccl.err);
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'nccl.version'") + (nccl.exit_code == 0 ? "\n" : "") ==
        nccl.out);
}

TEST_CASE("the mpirun and torchrun-env launchers start one process per task across both nodes") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("mpirun.yaml", std::string("name: mpirun\nexecutor: slurm\nmatrix: {n: [1]}\n"
                                       "resources: {nodes: 2, ntasks-per-node: 2, time: 5}\n"
                                       "workload: {launcher: mpirun, command: ") + MPI_HELLO + "}\n");
  box.write("torch.yaml", "name: torch\nexecutor: slurm\nmatrix: {n: [1]}\n"
                          "resources: {nodes: 2, ntasks-per-node: 2, time: 5}\n"
                          "workload: {launcher: torchrun-env, mpi: pmix, command: env}\n");
  const auto m = box.sweep({"run", "mpirun.yaml", "--label", L + "m", "--poll-max", "1"});
  INFO(m.out << m.err);
  REQUIRE(m.exit_code == 0);
  const std::string mout = e2e::read_file(query(box, "SELECT run_dir FROM runs r JOIN campaigns c ON c.id = r.campaign_id "
                                                     "WHERE c.experiment = 'mpirun'") + "/stdout");
  INFO(mout);
  CHECK_THAT(mout, Catch::Contains("of 4 on n1") && Catch::Contains("of 4 on n2") && Catch::Contains("ranksum=6"));

  const auto t = box.sweep({"run", "torch.yaml", "--label", L + "t", "--poll-max", "1"});
  INFO(t.out << t.err);
  REQUIRE(t.exit_code == 0);
  const std::string tout = e2e::read_file(query(box, "SELECT run_dir FROM runs r JOIN campaigns c ON c.id = r.campaign_id "
                                                     "WHERE c.experiment = 'torch'") + "/stdout");
  INFO(tout);
  for (const char* rank : {"RANK=0\n", "RANK=1\n", "RANK=2\n", "RANK=3\n"}) CHECK_THAT(tout, Catch::Contains(rank));
  CHECK_THAT(tout, Catch::Contains("WORLD_SIZE=4") && Catch::Contains("LOCAL_RANK=1") && Catch::Contains("MASTER_ADDR=localhost"));
  // Slurm's address of n1 (NodeHostname=localhost on the dev cluster), not its name, which does not resolve.
  CHECK_THAT(tout, !Catch::Contains("MASTER_ADDR=n1"));
  CHECK_THAT(tout, Catch::Contains("LOCAL_WORLD_SIZE=2") && Catch::Contains("NODE_RANK=1") && Catch::Contains("GROUP_RANK=0"));
  const std::string job = query(box, "SELECT value FROM run_provenance p JOIN runs r ON r.id = p.run_id JOIN campaigns c "
                                     "ON c.id = r.campaign_id WHERE c.experiment = 'torch' AND key = 'slurm.job_id'");
  CHECK_THAT(tout, Catch::Contains("MASTER_PORT=" + std::to_string(20000 + std::stoi(job) % 20000)));
}

TEST_CASE("a 12-run campaign goes out as one job array throttled to 2 and is ingested completely") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("arr.yaml", "name: arr\nexecutor: slurm\nmatrix: {n: [1, 2, 3, 4, 5, 6]}\nrepetitions: 2\n"
                        "resources: {ntasks: 1, time: 5}\n"
                        "workload: {command: 'echo \"value: {{n}}\"'}\n"
                        "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const auto r = box.sweep({"run", "arr.yaml", "--label", L, "--max-running", "2", "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("12 runs planned, 12 succeeded, 0 failed"));
  CHECK(query(box, "SELECT count(*) FROM submissions") == "1");
  CHECK(query(box, "SELECT count(*) FROM submission_tasks") == "12");
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'value'") == "12");
  CHECK(query(box, "SELECT sum(value) FROM metrics WHERE name = 'value'") == "42.0");  // the workload's (telemetry's metrics beside it)
  const std::string sub_dir = query(box, "SELECT dir FROM submissions");
  CHECK_THAT(e2e::read_file(sub_dir + "/array.sh"), Catch::Contains("#SBATCH --array=0-11%2"));
  CHECK_THAT(e2e::read_file(sub_dir + "/tasks.tsv"), Catch::StartsWith("# sweep task table, format 1"));
  // every run's Slurm output file is named %A_%a inside its own run directory
  const std::string job = query(box, "SELECT job_id FROM submissions");
  const std::string dir = query(box, "SELECT r.run_dir FROM runs r JOIN submission_tasks t ON t.run_id = r.id WHERE t.task = 7");
  CHECK(std::filesystem::exists(dir + "/slurm-" + job + "_7.out"));
}

TEST_CASE("a detached campaign: run --detach submits and exits, collect runs until done, then status and report") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("det.yaml", "name: det\nexecutor: slurm\nmatrix: {n: [1, 2, 3]}\nresources: {time: 5}\n"
                        "workload: {command: 'sleep 2; echo \"value: {{n}}\"'}\n"
                        "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const auto d = box.sweep({"run", "det.yaml", "--label", L, "--detach", "--max-queued", "2"});
  INFO(d.out << d.err);
  REQUIRE(d.exit_code == 0);
  CHECK_THAT(d.out, Catch::Contains("3 runs planned, 0 succeeded, 0 failed, 3 unfinished"));
  CHECK(query(box, "SELECT count(*) FROM submission_tasks") == "2");  // --max-queued 2 holds the third back
  CHECK(!squeue_field("sweep-" + L + "-", "%i").empty());
  const auto st = box.sweep({"status", L});
  CHECK_THAT(st.out, Catch::Contains("running 0, queued 2, pending 1"));  // submitted: queued until Slurm runs them
  e2e::Result c;
  wait_until([&] {
    c = box.sweep({"collect", L, "--max-queued", "2"});
    return c.out.find("0 unfinished") != std::string::npos;
  }, std::chrono::seconds(90), "collect to finish the campaign");
  CHECK(c.exit_code == 0);
  CHECK_THAT(c.out, Catch::Contains("3 succeeded"));
  CHECK(query(box, "SELECT count(*) FROM submissions") == "2");
  CHECK_THAT(box.sweep({"status", L}).out, Catch::Contains("succeeded 3") && Catch::Contains("ended"));
  const auto rep = box.sweep({"report", L});
  INFO(rep.err);
  CHECK(rep.exit_code == 0);
  CHECK_THAT(e2e::read_file(box.path("reports/" + L + "/report.md")), Catch::Contains("value"));
}

TEST_CASE("cancel removes a detached campaign's jobs from the queue and records them as cancelled") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  box.write("long.yaml", "name: long\nexecutor: slurm\nmatrix: {n: [1, 2, 3]}\n"
                         "workload: {command: 'if [ {{n}} != 3 ]; then sleep 300; fi'}\n");
  REQUIRE(box.sweep({"run", "long.yaml", "--label", L, "--detach"}).exit_code == 0);
  const std::string jobcomp = state_dir() + "/jobcomp.txt";
  wait_until([&] { return shell("grep -c ' Name=sweep-" + L + "-s1 .*JobState=COMPLETED' " + jobcomp).out == "1\n"; },
             std::chrono::seconds(120), "the short run to complete");  // another case may hold the nodes
  const auto c = box.sweep({"cancel", L});
  INFO(c.out << c.err);
  CHECK(c.exit_code == 0);  // cancelling succeeded; the cancelled runs are failed runs of the campaign
  CHECK_THAT(c.out, Catch::Contains("cancelled 1 job array (2 tasks)"));
  CHECK(query(box, "SELECT count(*) FROM runs WHERE failure_class = 'cancelled'") == "2");
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "1");  // ended before: ingested
  wait_until([&] { return squeue_field("sweep-" + L + "-", "%i").empty(); }, std::chrono::seconds(20),
             "the jobs to leave the queue");
  CHECK(box.sweep({"collect", "nope"}).exit_code == 4);
}
