#include <catch2/catch.hpp>

#include <filesystem>

#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "e2e/harness.h"

using namespace e2e;

TEST_CASE("the demo experiment runs end to end into the database and a report") {
  Sandbox box;
  // As a new user runs it (README): telemetry on, its default.
  const auto run = box.sweep({"run", repo_file("experiments/demo.yaml"), "--label", "demo", "--jobs", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("12 runs planned, 12 succeeded, 0 failed"));
  CHECK_THAT(run.out, Catch::Contains("database: results/sweep.db"));

  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE label = 'demo' AND ended_at IS NOT NULL") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM points") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM point_params WHERE name = 'items_per_thread' AND derived = 1") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded' AND attempt = 1") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'elapsed' AND unit = 's' AND value > 0") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'throughput' AND better = 'higher'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'hostname'") == 12);
  // This machine's network interfaces, loopback among them ("lo unknown" on Linux: it has no carrier state).
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'nics' AND ' ' || replace(value, char(10), ' ') || ' ' LIKE '% lo unknown %'") == 12);
  // The NCCL this machine's loader finds, when it has one (the build machines: /usr/local/cuda's), as
  // ncclGetVersion reports it, in every run; none where there is no NCCL.
  const auto nccl = shell(NCCL_VERSION_BIN);
  std::string version = nccl.out;
  while (!version.empty() && version.back() == '\n') version.pop_back();
  INFO("nccl-version: " << nccl.out << nccl.err);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'nccl.version' AND value = '" + version + "'") ==
        (nccl.exit_code == 0 ? 12 : 0));
  CHECK(scalar(db, "SELECT count(*) FROM point_params WHERE name = 'n' AND type = 'int' AND value = '200000'") == 2);
  // Every run sampled: its telemetry file named, its CPU time and memory as metrics with units.
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'telemetry.files'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'cpu_time_s' AND unit = 's'") == 12);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'peak_rss_mib' AND unit = 'MiB' AND value > 0") == 12);

  const auto report = box.sweep({"report", "demo", "--stdout"});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK_THAT(report.out, Catch::Contains("| n | threads | elapsed (s) | throughput (lines/s) |"));
  // The hardware the runs recorded: this machine's CPU; not its NCCL, which no run asked for
  // (report_hardware_test.cpp).
  CHECK_THAT(report.out, Catch::Contains("Hardware: CPU ") && Catch::Contains("; GPU none requested.\n") &&
                             !Catch::Contains("NCCL"));
  CHECK_THAT(report.out, Catch::Contains("| 200000 | 2 |"));
  CHECK_THAT(report.out, Catch::Contains("(3) |"));
  CHECK_THAT(read_file(box.path("reports/demo/report.csv")),
             Catch::StartsWith("n,threads,elapsed (s) mean,elapsed (s) sd,elapsed (s) n,"));
  // No figure is declared: one per metric against n (numeric, 10x apart: linear x), a line per thread count.
  CHECK_THAT(report.out, Catch::Contains("![elapsed by n](figures/default-elapsed.svg)") &&
                             Catch::Contains("![throughput by n](figures/default-throughput.svg)"));
  const std::string script = read_file(box.path("reports/demo/figures/default-elapsed.gp"));
  CHECK_THAT(script, Catch::Contains("threads=1") && Catch::Contains("threads=2") && Catch::Contains("unset logscale x"));
  CHECK(std::filesystem::file_size(box.path("reports/demo/figures/default-elapsed.svg")) > 1000);

  const auto pivot = box.sweep({"report", "demo", "--rows", "n", "--cols", "threads", "--stdout"});
  REQUIRE(pivot.exit_code == 0);
  CHECK_THAT(pivot.out, Catch::Contains("### elapsed (s)"));
  CHECK_THAT(pivot.out, Catch::Contains("| n | threads=1 | threads=2 |"));

  const auto ls = box.sweep({"ls"});
  CHECK_THAT(ls.out, Catch::Contains("demo") && Catch::Contains("12"));
  const auto show = box.sweep({"show", "demo"});
  CHECK_THAT(show.out, Catch::Contains("spec sha256") && Catch::Contains("cpu_model"));
}

TEST_CASE("plan prints every point and the run count without running anything") {
  Sandbox box;
  const auto plan = box.sweep({"plan", repo_file("experiments/demo.yaml"), "--format", "json"});
  REQUIRE(plan.exit_code == 0);
  CHECK_THAT(plan.out, Catch::Contains(R"("format":"sweep-plan","version":2)"));
  CHECK_THAT(plan.out, Catch::Contains(R"("point_count":4,"repetitions":3,"run_count":12)"));
  CHECK_THAT(plan.out, Catch::Contains(R"("n":200000,"threads":2,"items_per_thread":100000)"));
  const auto table = box.sweep({"plan", repo_file("experiments/demo.yaml")});
  CHECK_THAT(table.out, Catch::Contains("4 points x 3 repetitions = 12 runs"));
  const auto set = box.sweep({"plan", repo_file("experiments/demo.yaml"), "--set", "threads=4", "--format", "csv"});
  CHECK_THAT(set.out, Catch::Contains(",20000,4,5000"));
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
}

TEST_CASE("dry-run renders the job scripts and records nothing") {
  Sandbox box;
  const auto run = box.sweep({"run", repo_file("experiments/demo.yaml"), "--label", "dry", "--dry-run"});
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("rendered 12 job scripts"));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
  int scripts = 0;  // each in its run directory, named as a real first attempt's, as run.sh
  for (const auto& e : std::filesystem::directory_iterator(box.path("results/dry/dry-run"))) {
    ++scripts;
    CHECK_THAT(e.path().filename().string(), Catch::EndsWith(".attempt1"));
    CHECK_THAT(read_file((e.path() / "run.sh").string()), Catch::Contains("seq 20000") || Catch::Contains("seq 200000"));
  }
  CHECK(scripts == 12);
}

TEST_CASE("a Slurm dry run writes one array script per resource shape, with its #SBATCH lines and task table") {
  Sandbox box;
  box.write("arr.yaml", "name: arr\nexecutor: slurm\nmatrix: {n: [1, 2, 3], nodes: [1, 2]}\nrepetitions: 2\n"
                        "resources: {nodes: '{{nodes}}', ntasks-per-node: 2, time: 10}\n"
                        "workload: {command: 'echo {{n}}'}\n");
  const auto run = box.sweep({"run", "arr.yaml", "--label", "d", "--dry-run", "--max-running", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string dir = box.path("results/d/dry-run");
  CHECK_THAT(run.out, Catch::Contains("rendered 12 job scripts") && Catch::Contains("as 2 Slurm job arrays") &&
                         Catch::Contains(" tasks each, "));
  CHECK_THAT(run.out, Catch::Contains(dir + "/array-1/array.sh: 6 tasks, --nodes=1 --ntasks-per-node=2 --time=10"));
  CHECK_THAT(run.out, Catch::Contains(dir + "/array-2/array.sh: 6 tasks, --nodes=2 --ntasks-per-node=2 --time=10"));
  const std::string array = read_file(dir + "/array-2/array.sh");
  CHECK_THAT(array, Catch::Contains("#SBATCH --array=0-5%2\n#SBATCH --output=") &&
                        Catch::Contains("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=2\n#SBATCH --time=10\n") &&
                        Catch::Contains("#SBATCH --job-name=sweep-d-s2\n"));
  // each task of the table names the run directory of a dry-run job script of that shape: the
  // directory whose run.sh the array script runs
  const std::string table = read_file(dir + "/array-2/tasks.tsv");
  CHECK_THAT(table, Catch::StartsWith("# sweep task table, format 1"));
  std::size_t rows = 0;
  for (std::size_t at = table.find('\n'); at != std::string::npos && at + 1 < table.size(); at = table.find('\n', at + 1)) {
    const std::string row = table.substr(at + 1, table.find('\n', at + 1) - at - 1);
    const std::string run_dir = row.substr(row.find('\t') + 1, row.find('\t', row.find('\t') + 1) - row.find('\t') - 1);
    CHECK(std::filesystem::exists(run_dir + "/run.sh"));
    CHECK_THAT(read_file(run_dir + "/run.sh"), Catch::Contains("echo"));
    ++rows;
  }
  CHECK(rows == 6);
  CHECK_THAT(array, Catch::Contains("exec \"$run_dir/run.sh\""));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
}

TEST_CASE("a Slurm dry run cuts its arrays at the MaxArraySize of the cluster that answers scontrol") {
  // A real process on PATH answers `scontrol show config` as a cluster with MaxArraySize 4 would.
  Sandbox box;
  box.write("bin/scontrol", "#!/bin/sh\n[ \"$*\" = 'show config' ] || exit 1\n"
                            "printf 'Configuration data as of now\\nMaxArraySize            = 4\\n'\n");
  std::filesystem::permissions(box.path("bin/scontrol"), std::filesystem::perms::owner_all);
  box.write("cut.yaml", "name: cut\nexecutor: slurm\nmatrix: {n: [1, 2, 3]}\nrepetitions: 2\n"
                        "workload: {command: 'echo {{n}}'}\n");
  const auto run = shell("cd '" + box.dir().string() + "' && PATH='" + box.path("bin") + "':$PATH '" + SWEEP_BIN +
                         "' run cut.yaml --label c --dry-run");
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string dir = box.path("results/c/dry-run");
  CHECK_THAT(run.out, Catch::Contains("as 2 Slurm job arrays, one per resource shape, at most 4 tasks each, the "
                                      "cluster's MaxArraySize:"));
  CHECK_THAT(run.out, Catch::Contains(dir + "/array-1/array.sh: 4 tasks") &&
                          Catch::Contains(dir + "/array-2/array.sh: 2 tasks"));
  CHECK_THAT(read_file(dir + "/array-1/array.sh"), Catch::Contains("#SBATCH --array=0-3\n"));
  // Without that cluster: Slurm's default, said as such (this machine's scontrol reaches no controller).
  box.write("fail/scontrol", "#!/bin/sh\nexit 1\n");
  std::filesystem::permissions(box.path("fail/scontrol"), std::filesystem::perms::owner_all);
  const auto alone = shell("cd '" + box.dir().string() + "' && PATH='" + box.path("fail") + "':$PATH '" + SWEEP_BIN +
                           "' run cut.yaml --label d --dry-run");
  CHECK_THAT(alone.out, Catch::Contains("as 1 Slurm job arrays, one per resource shape, at most 1001 tasks each, "
                                        "Slurm's default MaxArraySize: no cluster answered scontrol show config:"));
}

TEST_CASE("sweep status --watch shows each change of a running campaign and returns when it has ended") {
  Sandbox box;
  box.write("w.yaml", "name: w\nmatrix: {n: [1, 2, 3]}\nworkload: {command: 'sleep 1; echo {{n}}'}\n");
  const int pid = box.spawn_sweep({"run", "w.yaml", "--label", "w", "--jobs", "1"});
  // the campaign exists once the controller has recorded it
  for (int i = 0; i < 2400 && box.sweep({"status", "w"}).exit_code != 0; ++i)  // a bound on a hang
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto watch = box.sweep({"status", "w", "--watch", "--interval", "0.2"});
  int status = 0;
  ::waitpid(pid, &status, 0);
  INFO(watch.out << watch.err);
  CHECK(watch.exit_code == 0);
  CHECK(WEXITSTATUS(status) == 0);
  // not a terminal: a new status only when it changed, the last one ended with every run succeeded
  std::size_t shown = 0;
  for (std::size_t at = watch.out.find("campaign w (local executor)"); at != std::string::npos;
       at = watch.out.find("campaign w (local executor)", at + 1))
    ++shown;
  CHECK(shown >= 3);
  CHECK_THAT(watch.out, Catch::Contains("succeeded 3, failed 0, running 0, pending 0; ended"));
  CHECK(watch.out.find("\033[") == std::string::npos);
}
