// slurm/client.h's pure readers: the settings of `scontrol show config` and the user's MaxSubmitJobs.
// The lines are real output of Slurm 22.05 on the development cluster (scripts/slurm-dev-cluster).
#include <catch2/catch.hpp>

#include "slurm/client.h"

using namespace sweep::slurm;

TEST_CASE("scontrol show config: accounting, jobcomp file, MaxArraySize and MaxJobCount") {
  const ClusterConfig c = parse_config(
      "Configuration data as of 2026-11-25T12:40:00\n"
      "AccountingStorageType   = accounting_storage/slurmdbd\n"
      "JobCompLoc              = /work/main/.slurm-dev/jobcomp.txt\n"
      "JobCompType             = jobcomp/filetxt\n"
      "MaxArraySize            = 10001\n"
      "MaxJobCount             = 20000\n"
      "MinJobAge               = 300 sec\n");
  CHECK(c.accounting);
  CHECK(c.jobcomp_file == "/work/main/.slurm-dev/jobcomp.txt");
  CHECK(c.limits.max_array_tasks == 10001);
  CHECK(c.limits.max_job_count == 20000);
  CHECK(!c.limits.max_submit_jobs);
  CHECK(c.limits.from_cluster);  // the dry run says whose MaxArraySize cut its arrays
  CHECK_FALSE(sweep::sched::Limits{}.from_cluster);

  // Slurm's defaults when a line is missing; no jobcomp file unless the plugin is filetxt
  const ClusterConfig d = parse_config("AccountingStorageType   = (null)\nJobCompLoc = /x\nJobCompType = jobcomp/none\n");
  CHECK(!d.accounting);
  CHECK(d.jobcomp_file.empty());
  CHECK(d.limits.max_array_tasks == 1001);
  CHECK(d.limits.max_job_count == 10000);
}

TEST_CASE("sacctmgr show assoc format=MaxSubmit: the smallest limit of the user's associations, or none") {
  CHECK(parse_max_submit("\n50\n20\n") == std::optional<std::size_t>(20));
  CHECK(!parse_max_submit("\n\n"));
  CHECK(!parse_max_submit(""));
}
