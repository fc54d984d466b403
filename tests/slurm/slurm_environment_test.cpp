// An experiment's `env` and `setup` on the development cluster: a user's own PyTorch DDP script run with
// the torchrun-env launcher from a virtualenv that setup activates, Lmod modules loaded by setup, a
// failing setup line, and per-point variables reaching every task under srun and mpirun.
#include <catch2/catch.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

/// Every row of `sql` on the sandbox's results database, each column as text.
std::vector<std::vector<std::string>> rows(const e2e::Sandbox& box, const std::string& sql) {
  auto db = box.db();
  SQLite::Statement q(db, sql);
  std::vector<std::vector<std::string>> out;
  while (q.executeStep()) {
    std::vector<std::string> row;
    for (int i = 0; i < q.getColumnCount(); ++i) row.push_back(q.getColumn(i).getString());
    out.push_back(std::move(row));
  }
  return out;
}

/// Every run as {id, run_dir, state, value of parameter a, value of parameter b}, in id order.
std::vector<std::vector<std::string>> runs_with(const e2e::Sandbox& box, const std::string& a, const std::string& b) {
  const auto param = [](const std::string& name) {
    return "(SELECT value FROM point_params p WHERE p.campaign_id = r.campaign_id AND p.point_id = r.point_id AND "
           "p.name = '" + name + "')";
  };
  return rows(box, "SELECT r.id, r.run_dir, r.state, " + param(a) + ", " + param(b) + " FROM runs r ORDER BY r.id");
}

/// Provenance `key` of run `run_id`'s latest attempt ("" when absent).
std::string provenance(const e2e::Sandbox& box, const std::string& run_id, const std::string& key) {
  return query(box, "SELECT p.value FROM run_provenance p JOIN runs r ON r.id = p.run_id AND r.attempt = p.attempt "
                    "WHERE r.id = " + run_id + " AND p.key = '" + key + "'");
}

/// The values of metric `name` in run `run_id`, in the order they were printed.
std::vector<double> metric(const e2e::Sandbox& box, const std::string& run_id, const std::string& name) {
  std::vector<double> out;
  for (const auto& row : rows(box, "SELECT value FROM metrics WHERE run_id = " + run_id + " AND name = '" + name +
                                       "' ORDER BY idx"))
    out.push_back(std::stod(row[0]));
  return out;
}

/// The lines of `text` that start with `prefix`, sorted.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  std::sort(out.begin(), out.end());
  return out;
}

/// How many lines of `text` are exactly `line`.
long count_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  long n = 0;
  for (std::string l; std::getline(in, l);) n += l == line;
  return n;
}

/// A module tree `<box>/modules` with the Lua modulefile mytool/1.0, which puts `<box>/mytool-bin`
/// (holding the program `mytool`) on PATH and sets MYTOOL_HOME.
void write_mytool_module(const e2e::Sandbox& box) {
  box.write("modules/mytool/1.0.lua", "-- mytool 1.0: a stand-in site tool for sweep's tests\n"
                                      "whatis(\"mytool 1.0\")\n"
                                      "prepend_path(\"PATH\", \"" + box.path("mytool-bin") + "\")\n"
                                      "setenv(\"MYTOOL_HOME\", \"" + box.path("mytool-home") + "\")\n");
  const std::string tool = box.write("mytool-bin/mytool", "#!/bin/sh\necho \"mytool 1.0 on $(hostname) home=$MYTOOL_HOME\"\n");
  std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
}

void require_lmod() {
  INFO("these tests need Lmod (Debian package lmod)");
  REQUIRE(shell("test -r /usr/share/lmod/lmod/init/bash || test -r /etc/profile.d/lmod.sh").exit_code == 0);
}

}  // namespace

TEST_CASE("a user's DDP script runs under torchrun-env from a venv setup activates") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  {
    INFO("Debian's python3 with torch (python3-torch) and venv (python3-venv) are needed");
    REQUIRE(shell("/usr/bin/python3 -c 'import torch, venv'").exit_code == 0);
  }
  const std::string venv = box.path("venv");
  const auto made = shell("/usr/bin/python3 -m venv --system-site-packages --without-pip " + venv);
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  const std::string script = e2e::repo_file("tests/data/pytorch/ddp_train.py");
  // The workload names plain python3: only the venv that setup activates makes it Debian's, with torch.
  box.write("ddp.yaml", "name: ddp\nexecutor: slurm\n"
                        "matrix:\n"
                        "  topology:\n"
                        "    - {nodes: 1, ppn: 1}\n"
                        "    - {nodes: 1, ppn: 2}\n"
                        "    - {nodes: 2, ppn: 1}\n"
                        "resources: {nodes: \"{{nodes}}\", ntasks-per-node: \"{{ppn}}\", time: 5}\n"
                        "env: {OMP_NUM_THREADS: 1, GLOO_SOCKET_IFNAME: lo}\n"
                        "setup: [\"source " + venv + "/bin/activate\"]\n"
                        "workload:\n"
                        "  launcher: torchrun-env\n"
                        "  command: python3 " + script + " --epochs 3\n"
                        "metrics:\n"
                        "  - {name: epoch_loss, better: lower, regex: 'epoch \\d+/\\d+ \\| loss (?<value>[0-9.]+)', reduce: each}\n"
                        "  - {name: final_loss, better: lower, regex: 'final loss (?<value>[0-9.]+)'}\n"
                        "  - {name: throughput, unit: samples/s, better: higher, regex: '\\| (?<value>[0-9.]+) samples/s', reduce: each}\n");
  const auto r = box.sweep({"run", "ddp.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("3 runs planned, 3 succeeded, 0 failed"));
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'final_loss'") == "3");

  const auto runs = runs_with(box, "nodes", "ppn");
  REQUIRE(runs.size() == 3);
  std::vector<std::string> topologies;
  for (const auto& run : runs) {
    const std::string& id = run[0];
    const int nodes = std::stoi(run[3]), ppn = std::stoi(run[4]), world = nodes * ppn;
    topologies.push_back(run[3] + "x" + run[4]);
    const std::string out = e2e::read_file(run[1] + "/stdout");
    INFO("run " << id << ", " << nodes << " node(s) x " << ppn << " task(s):\n" << out << e2e::read_file(run[1] + "/stderr"));
    CHECK(run[2] == "succeeded");

    // Every rank got its place in the job from the launcher; MASTER_ADDR is the first node's address.
    const std::string job = provenance(box, id, "slurm.job_id");
    REQUIRE(!job.empty());
    const std::string master = "localhost:" + std::to_string(20000 + std::stol(job) % 20000);
    std::vector<std::string> expected;
    for (int rank = 0; rank < world; ++rank)
      expected.push_back(fmt::format("rank {}/{} local_rank {}/{} node {} master {}", rank, world, rank % ppn, ppn,
                                     rank / ppn, master));
    std::sort(expected.begin(), expected.end());
    CHECK(lines_starting(out, "rank ") == expected);
    CHECK_THAT(out, !Catch::Contains("master n1"));

    // It trained, as one process group, and DDP kept the replicas identical.
    CHECK_THAT(out, Catch::Contains("epoch 3/3 | loss ") &&
                        Catch::Contains(fmt::format("samples/s | world {}\n", world)));
    CHECK_THAT(out, Catch::Contains("params in sync: True"));
    const auto epoch_loss = metric(box, id, "epoch_loss");
    REQUIRE(epoch_loss.size() == 3);
    CHECK(epoch_loss[2] < epoch_loss[0]);
    CHECK(metric(box, id, "final_loss") == std::vector<double>{epoch_loss[2]});
    const auto throughput = metric(box, id, "throughput");
    CHECK(throughput.size() == 3);
    CHECK(std::all_of(throughput.begin(), throughput.end(), [](double v) { return v > 0; }));

    // What the workload's environment was.
    CHECK_THAT(provenance(box, id, "job.python"), Catch::StartsWith(venv + "/bin/python3 3."));
    CHECK(provenance(box, id, "job.setup") == "source " + venv + "/bin/activate");
    CHECK(provenance(box, id, "job.env_set") == "OMP_NUM_THREADS=1\nGLOO_SOCKET_IFNAME=lo");
  }
  std::sort(topologies.begin(), topologies.end());
  CHECK(topologies == std::vector<std::string>{"1x1", "1x2", "2x1"});
}

TEST_CASE("setup loads an Lmod module and both nodes' tasks run its program") {
  slurm_conf();
  require_lmod();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  write_mytool_module(box);
  box.write("lmod.yaml", "name: lmod\nexecutor: slurm\nmatrix: {n: [1]}\n"
                         "resources: {nodes: 2, ntasks-per-node: 1, time: 5}\n"
                         "setup: [\"module use " + box.path("modules") + "\", \"module load mytool/1.0\"]\n"
                         "workload: {launcher: srun, command: mytool}\n");
  const auto r = box.sweep({"run", "lmod.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string id = query(box, "SELECT id FROM runs");
  const std::string dir = query(box, "SELECT run_dir FROM runs");
  const std::string out = e2e::read_file(dir + "/stdout");
  INFO(out << e2e::read_file(dir + "/stderr") << e2e::read_file(dir + "/setup.log"));
  const std::string home = " home=" + box.path("mytool-home");
  CHECK(lines_starting(out, "mytool ") ==
        std::vector<std::string>{"mytool 1.0 on n1" + home, "mytool 1.0 on n2" + home});
  CHECK(count_line(provenance(box, id, "job.modules"), "mytool/1.0") == 1);
  CHECK(provenance(box, id, "job.setup") == "module use " + box.path("modules") + "\nmodule load mytool/1.0");
}

TEST_CASE("a site file turns a plain experiment into a Slurm campaign of the site") {
  slurm_conf();
  require_lmod();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  write_mytool_module(box);
  // With accounting (as scripts/test runs the cluster), an account Slurm's database lacks becomes the
  // user's default: the lab's account exists, as on a real site.
  shell("sacctmgr -i add account lab42 && sacctmgr -i add user root account=lab42");
  // Everything cluster-specific is in the site file; the experiment names only its own matrix and sizes.
  const std::string site = box.write("site.yaml", "format: 1\nname: dev-cluster\nexecutor: slurm\n"
                                                  "resources: {partition: debug, account: lab42, qos: normal, time: 5}\n"
                                                  "workload: {launcher: srun}\n"
                                                  "env: {SITE_VAR: from-site}\n"
                                                  "setup: [\"module use " + box.path("modules") + "\", \"module load mytool/1.0\"]\n"
                                                  "results: " + box.path("lab-results") + "\n");
  // account: '' leaves the account to the site, as the bundled studies' partition and account do.
  box.write("plain.yaml", "name: plain\nmatrix: {n: [1], account: ['']}\n"
                          "resources: {nodes: 2, ntasks-per-node: 1, account: \"{{account}}\"}\n"
                          "workload: {command: 'sh -c \"mytool; echo SITE_VAR=$SITE_VAR\"'}\n");
  const auto r = box.sweep({"run", "plain.yaml", "--label", L, "--poll-max", "1", "--site", site});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SQLite::Database db(box.path("lab-results/sweep.db"), SQLite::OPEN_READONLY);
  const auto value = [&](const std::string& sql) {
    SQLite::Statement q(db, sql);
    return q.executeStep() ? q.getColumn(0).getString() : std::string();
  };
  CHECK(value("SELECT executor FROM campaigns") == "slurm");
  const std::string dir = value("SELECT run_dir FROM runs");
  const std::string out = e2e::read_file(dir + "/stdout");
  INFO(out << e2e::read_file(dir + "/stderr"));
  const std::string home = " home=" + box.path("mytool-home");
  // The site's srun started a task on each node, after the site's setup loaded the module.
  CHECK(lines_starting(out, "mytool ") == std::vector<std::string>{"mytool 1.0 on n1" + home, "mytool 1.0 on n2" + home});
  CHECK(count_line(out, "SITE_VAR=from-site") == 2);
  const std::string job = value("SELECT value FROM run_provenance WHERE key = 'job.scontrol_show_job'");
  CHECK_THAT(job, Catch::Contains("Partition=debug") && Catch::Contains("Account=lab42") && Catch::Contains("NumNodes=2"));
  // Without accounting slurmctld drops the QOS, so it is checked where sbatch got it.
  const auto array = e2e::shell("cat " + box.path("lab-results/" + L) + "/.submissions/*/array.sh");
  CHECK_THAT(array.out, Catch::Contains("\n#SBATCH --qos=normal\n") && Catch::Contains("\n#SBATCH --partition=debug\n") &&
                            Catch::Contains("\n#SBATCH --account=lab42\n") && Catch::Contains("\n#SBATCH --time=5\n"));
  CHECK_THAT(value("SELECT value FROM run_provenance WHERE key = 'job.site'"), Catch::StartsWith(site + " sha256:"));
}

TEST_CASE("a failing module load fails as setup and is retried, the workload never runs") {
  slurm_conf();
  require_lmod();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  write_mytool_module(box);
  box.write("badmod.yaml", "name: badmod\nexecutor: slurm\nmatrix: {n: [1]}\n"
                           "resources: {ntasks: 1, time: 5}\n"
                           "retries: {SETUP: 1}\n"
                           "setup: [\"module use " + box.path("modules") + "\", \"module load nosuch/9\"]\n"
                           "workload: {launcher: srun, command: echo workload ran}\n");
  const auto r = box.sweep({"run", "badmod.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const std::string reason = "setup line 2 failed with status 1: module load nosuch/9 (its output is in setup.log)";
  // The reason's first line; setup.log's last lines follow it (util/output_tail.h).
  CHECK_THAT(query(box, "SELECT state || ' ' || failure_class || ' ' || exit_code || ': ' || failure_reason FROM runs"),
             Catch::StartsWith("failed setup 1: " + reason + "\n--- last "));
  // SETUP: 1 gave it a second attempt, which failed the same way.
  CHECK(query(box, "SELECT count(*) FROM attempts WHERE failure_class = 'setup' AND failure_reason LIKE '" + reason + "%'") ==
        "2");
  const std::string dir = query(box, "SELECT run_dir FROM runs");
  CHECK_THAT(dir, Catch::Contains("attempt2"));
  const std::string out = e2e::read_file(dir + "/stdout");
  CHECK(out.empty());
  CHECK(std::filesystem::exists(dir + "/stdout"));  // the job did start: it is the workload that never ran
  CHECK_THAT(e2e::read_file(dir + "/stderr"), Catch::Contains("sweep: setup line 2 failed with status 1: module load nosuch/9"));
  CHECK_THAT(e2e::read_file(dir + "/setup.log"), Catch::Contains("nosuch/9"));
  CHECK(e2e::read_file(dir + "/setup_failed") == "format=1\nline=2\nstatus=1\ntext=module load nosuch/9\n");
}

TEST_CASE("env values per point reach every task under srun and mpirun, literally") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "t");
  // One short line per task, written at once: the tasks' outputs share one file, and srun and mpirun
  // forward each task's output in chunks that may cut a long `env` listing mid-line.
  const std::string show = box.write("show-env.sh", "printf '%s NCCL_IB_DISABLE=%s GLOO_SOCKET_IFNAME=%s ODD=%s\\n' "
                                                    "\"$SLURMD_NODENAME\" \"$NCCL_IB_DISABLE\" \"$GLOO_SOCKET_IFNAME\" \"$ODD\"\n");
  box.write("env.yaml", "name: envs\nexecutor: slurm\n"
                        "matrix: {ib_off: [0, 1], via: [srun, mpirun]}\n"
                        "resources: {nodes: 2, ntasks-per-node: 1, time: 5}\n"
                        "env: {NCCL_IB_DISABLE: \"{{ib_off}}\", GLOO_SOCKET_IFNAME: lo, ODD: \"a b 'c' $HOME\"}\n"
                        "workload:\n"
                        "  - {when: \"via == 'srun'\", launcher: srun, command: sh " + show + "}\n"
                        "  - {launcher: mpirun, command: sh " + show + "}\n");
  // One run at a time: two mpiruns starting in the same instant on this one machine (both emulated
  // nodes) occasionally fail before launching anything (seen once in CI: exit 1, no step started).
  const auto r = box.sweep({"run", "env.yaml", "--label", L, "--poll-max", "1", "--max-running", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto runs = runs_with(box, "ib_off", "via");
  REQUIRE(runs.size() == 4);
  std::vector<std::string> points;
  for (const auto& run : runs) {
    const std::string& ib = run[3];
    points.push_back(ib + " " + run[4]);
    const std::string out = e2e::read_file(run[1] + "/stdout");
    INFO("ib_off " << ib << " via " << run[4] << ":\n" << out);
    // one line per task, on both nodes, with the point's values taken literally
    const std::string seen = " NCCL_IB_DISABLE=" + ib + " GLOO_SOCKET_IFNAME=lo ODD=a b 'c' $HOME";
    CHECK(lines_starting(out, "n") == std::vector<std::string>{"n1" + seen, "n2" + seen});
    CHECK(provenance(box, run[0], "job.env_set") == "NCCL_IB_DISABLE=" + ib + "\nGLOO_SOCKET_IFNAME=lo\nODD=a b 'c' $HOME");
  }
  std::sort(points.begin(), points.end());
  CHECK(points == std::vector<std::string>{"0 mpirun", "0 srun", "1 mpirun", "1 srun"});
}
