// Reading sacct's usage figures (slurm/usage.h). The lines are real output of
// `sacct -n -P --format=<kSacctUsageFormat> -j 1,3,4` (Slurm 22.05.8) on the project's development
// cluster (scripts/slurm-dev-cluster up --accounting, jobacct_gather/linux, no energy plugin), except
// where marked as constructed.
#include <catch2/catch.hpp>

#include "slurm/usage.h"

using namespace sweep::slurm;

namespace {
// Job array 1 (two tasks: a batch step and one srun step each, JobAcctGatherFrequency 30 s: the steps
// ended before a sample, so MaxRSS is empty); job 3 (--acctg-freq=task=1, a batch step and an srun
// step); job 4 (python3 holding 200 MiB and busy for 2 s of CPU, --acctg-freq=task=1).
constexpr const char* kDevCluster =
    "1_0|3|00:01.563||0||1G|2|billing=2,cpu=2,mem=1G,node=1|00:05:00\n"
    "1_0.batch|3|00:01.429||0|energy=0||2|cpu=2,mem=1G,node=1|\n"
    "1_0.0|0|00:00.133||0|energy=0||2|cpu=2,mem=1G,node=1|\n"
    "1_1|3|00:01.635||0||1G|2|billing=2,cpu=2,mem=1G,node=1|00:05:00\n"
    "1_1.batch|3|00:01.504||0|energy=0||2|cpu=2,mem=1G,node=1|\n"
    "1_1.0|0|00:00.131||0|energy=0||2|cpu=2,mem=1G,node=1|\n"
    "3|4|00:01.907||0||1G|2|billing=2,cpu=2,mem=1G,node=1|00:05:00\n"
    "3.batch|4|00:01.770|12480K|0|cpu=00:00:01,energy=0,fs/"
    "disk=419477052,mem=12480K,pages=0,vmem=221344K||2|cpu=2,mem=1G,node=1|\n"
    "3.0|2|00:00.137|1684K|0|cpu=00:00:00,energy=0,fs/"
    "disk=209743937,mem=1684K,pages=0,vmem=2920K||2|cpu=2,mem=1G,node=1|\n"
    "4|4|00:02.074||||1G|2|billing=2,cpu=2,mem=1G,node=1|00:05:00\n"
    "4.batch|4|00:02.074|221436K|0|cpu=00:00:01,energy=0,fs/"
    "disk=1694139,mem=221436K,pages=0,vmem=225732K||2|cpu=2,mem=1G,node=1|\n";
}  // namespace

TEST_CASE("sacct usage: array tasks, steps, MaxRSS over steps, no energy plugin") {
  const auto u = parse_sacct_usage(kDevCluster);
  REQUIRE(u.size() == 4);
  CHECK(u[0].job_id == "1_0");
  CHECK(u[0].array_job_id == "1");
  CHECK(u[0].task == 0);
  CHECK(u[1].task == 1);
  CHECK(u[0].elapsed_s == 3);
  CHECK(u[0].cpu_time_s.value() == Approx(1.563));  // the allocation's TotalCPU: its steps together
  CHECK_FALSE(u[0].max_rss_mib);                    // no step sampled: not measured, not 0
  CHECK_FALSE(u[0].energy_j);                       // 0 everywhere: no energy plugin
  CHECK(u[0].req_mem == "1G");
  CHECK(u[0].timelimit == "00:05:00");
  CHECK(u[0].alloc_cpus == 2);
  CHECK_FALSE(u[0].alloc_gpus);  // AllocTRES without gres/gpu
  CHECK(u[2].job_id == "3");
  CHECK(u[2].array_job_id.empty());
  CHECK_FALSE(u[2].task);
  CHECK(u[2].max_rss_mib.value() == Approx(12480.0 / 1024));  // the larger of the two steps
  CHECK(u[3].max_rss_mib.value() == Approx(221436.0 / 1024));
  CHECK(u[3].max_rss_mib.value() >= 200);
  CHECK(u[3].cpu_time_s.value() == Approx(2.074));
}

TEST_CASE("sacct usage: energy, GPUs, a step without TotalCPU on the allocation") {
  // Constructed (not captured: the development cluster has no energy plugin and does not track
  // gres/gpu): the fields as Slurm documents them, with energy only in the steps.
  const auto u = parse_sacct_usage(
      "77_2|120|||0||64G|16|billing=16,cpu=16,gres/gpu=4,mem=64G,node=1|02:00:00\n"
      "77_2.batch|120|01:02:03.500|2G|5000|energy=5000,mem=2G||16|cpu=16,gres/gpu=4,mem=64G,node=1|\n"
      "77_2.extern|120|00:00.001|1M|1000|energy=1000||16|cpu=16,gres/gpu=4,mem=64G,node=1|\n"
      "77_[3-9]|0|00:00:00||0||64G|16||02:00:00\n");
  REQUIRE(u.size() == 1);
  CHECK(u[0].cpu_time_s.value() == Approx(3723.501));
  CHECK(u[0].max_rss_mib == 2048);
  CHECK(u[0].energy_j == 6000);
  CHECK(u[0].alloc_gpus == 4);
  CHECK(u[0].alloc_cpus == 16);
}

TEST_CASE("sacct usage: sizes and CPU durations") {
  CHECK(slurm_size_mib("221436K").value() == Approx(221436.0 / 1024));
  CHECK(slurm_size_mib("12M") == 12);
  CHECK(slurm_size_mib("1.5G") == 1536);
  CHECK(slurm_size_mib("1T") == 1024 * 1024);
  CHECK(slurm_size_mib("1048576") == 1);
  CHECK_FALSE(slurm_size_mib(""));
  CHECK_FALSE(slurm_size_mib("12Q"));
  CHECK_FALSE(slurm_size_mib("K"));
  CHECK(cpu_duration_s("00:01.563").value() == Approx(1.563));
  CHECK(cpu_duration_s("1-02:03:04") == 93784);
  CHECK(cpu_duration_s("01:02:03.5") == 3723.5);
  CHECK_FALSE(cpu_duration_s(""));
  CHECK_FALSE(cpu_duration_s("abc"));
  CHECK(parse_sacct_usage("garbage\n\n1|2|3\n").empty());
}
