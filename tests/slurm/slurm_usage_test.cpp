// Slurm accounting's usage figures of a run (docs/telemetry.md, "Slurm accounting"): a job of known
// resident memory (python3 holding 200 MiB, a byte written in each page and never a second copy, so its
// peak is its steady state, which both sampled figures see) and CPU time (busy for 2 s of its own CPU time),
// with accounting on and the task sampled every second (--acctg-freq=task=1: the cluster's default of
// 30 s would end the job before its first sample). Needs scripts/slurm-dev-cluster up --accounting.
#include <catch2/catch.hpp>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE(
    "sacct's MaxRSS and TotalCPU of a job of known memory and CPU time become metrics that show --efficiency shows") {
  slurm_conf();
  INFO("needs accounting: scripts/slurm-dev-cluster up --accounting (scripts/test starts it so)");
  REQUIRE(shell("sacctmgr -n -P show cluster format=cluster").exit_code == 0);
  e2e::Sandbox box;
  const std::string L = unique_label(box, "u");
  box.write("usage.yaml",
            "name: usage\nexecutor: slurm\nmatrix: {n: [1]}\n"
            "resources: {time: 5, mem: 1G, cpus-per-task: 2, extra: [\"--acctg-freq=task=1\"]}\n"
            "workload:\n  command: >-\n    python3 -c \"import time; b = bytearray(200 << 20); b[::4096] = b'x' * len(b[::4096]);\n"
            "    exec('while time.process_time() < 2.0: pass'); print('held', len(b))\"\n");
  const auto r = box.sweep({"run", "usage.yaml", "--label", L, "--poll-max", "1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string job = query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.job_id'");
  INFO("sacct now: " << shell("sacct -n -P -j " + job + " --format=JobID,State,ElapsedRaw,TotalCPU,MaxRSS").out);
  const auto metric = [&](const std::string& name) {
    const std::string v = query(box, "SELECT value FROM metrics WHERE name = '" + name + "'");
    INFO(name << " = " << v);
    REQUIRE_FALSE(v.empty());
    return std::stod(v);
  };
  CHECK(metric("slurm_max_rss_mib") >= 190);
  CHECK(metric("slurm_max_rss_mib") < 400);
  CHECK(metric("slurm_cpu_time_s") >= 1.9);
  CHECK(metric("slurm_cpu_time_s") <= 4.0);  // 2 s busy, plus python's start and its 200 MiB written
  CHECK(query(box, "SELECT count(*) FROM metrics WHERE name = 'slurm_energy_j'") == "0");  // no energy plugin
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.req_mem'") == "1G");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.timelimit'") == "00:05:00");
  CHECK(query(box, "SELECT value FROM run_provenance WHERE key = 'slurm.alloc_cpus'") == "2");
  const auto show = box.sweep({"show", L, "--efficiency"});
  INFO(show.out << show.err);
  REQUIRE(show.exit_code == 0);
  // Telemetry (on by default) measured the same run: the view prefers its figures, and the two
  // independent measurements, the sampler's /proc and Slurm's jobacct_gather, agree.
  CHECK(metric("peak_rss_mib") == Approx(metric("slurm_max_rss_mib")).epsilon(0.15));
  CHECK(metric("cpu_time_s") == Approx(metric("slurm_cpu_time_s")).epsilon(0.25));
  CHECK_THAT(show.out, Catch::Contains("(peak_rss_mib of the one run); requested 1G (resources.mem)"));
  CHECK_THAT(show.out, Catch::Contains("requested 00:05:00 (slurm.timelimit)"));
  CHECK_THAT(show.out,
             Catch::Contains("(cpu_time_s / elapsed_s of the one run); requested 2 (slurm.alloc_cpus)"));
  CHECK_THAT(show.out, Catch::Contains("the one run (its p95 is that run)"));
}
