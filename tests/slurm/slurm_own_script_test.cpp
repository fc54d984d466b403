// A user's own Python script on the development cluster (issue 33): `python3 train.py` with relative
// paths beside its experiment, submitted from another directory, runs in the experiment's directory;
// the point that crashes shows its traceback; the script fixed, that point is rerun as a new attempt,
// repetitions are added, and the campaign is removed, each through Slurm.
#include <catch2/catch.hpp>

#include <filesystem>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

const char* kTrain = R"(import logging, os, sys
logging.basicConfig(level=logging.INFO)
batch, lr = int(sys.argv[1]), float(sys.argv[2])
with open("data/scale.txt") as f:
    scale = float(f.read())
logging.info("cwd %s", os.getcwd())
if lr > 0.2 and not os.path.exists("fixed"):
    raise FloatingPointError("loss is nan at step 3")
print(f"throughput: {scale * batch:.1f} samples/s", flush=True)
)";

const char* kExperiment = R"(name: own
executor: slurm
matrix:
  batch: [16, 32]
  lr: [0.01, 0.5]
resources: {time: 5}
workload:
  command: python3 train.py {{batch}} {{lr}}
metrics:
  - {name: throughput, unit: samples/s, better: higher, regex: 'throughput: (?<value>[0-9.]+)'}
)";

}  // namespace

TEST_CASE("a user's python3 train.py on Slurm: its directory, its traceback, rerun, extend and rm") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "own");
  box.write("project/train.py", kTrain);
  box.write("project/data/scale.txt", "2\n");
  box.write("project/exp.yaml", kExperiment);
  std::filesystem::create_directories(box.path("elsewhere"));
  const std::string sweep = "cd '" + box.path("elsewhere") + "' && " + SWEEP_BIN + " ";
  const std::string where = " --results '" + box.path("results") + "'";

  auto r = shell(sweep + "run ../project/exp.yaml --label " + L + where);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "2");
  // The traceback's own words, in the summary and in the stored reason; the cwd the script logged.
  CHECK_THAT(r.out + r.err, Catch::Contains("FloatingPointError: loss is nan at step 3"));
  CHECK_THAT(query(box, "SELECT failure_reason FROM runs WHERE state = 'failed'"),
             Catch::Contains("FloatingPointError: loss is nan at step 3"));
  for (const auto& row : rows_of(box, "SELECT run_dir FROM runs"))
    CHECK_THAT(e2e::read_file(row[0] + "/stderr"), Catch::Contains("INFO:root:cwd " + box.path("project")));
  CHECK_FALSE(std::filesystem::exists(box.path("project/exit_code")));

  box.write("project/fixed", "");
  r = shell(sweep + "rerun " + L + " --where lr=0.5" + where);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "4");
  CHECK(query(box, "SELECT count(*) FROM runs WHERE attempt = 2") == "2");

  r = shell(sweep + "extend " + L + " --repetitions 2 --where batch=16" + where);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "8");  // 2 more runs for each of 2 points
  CHECK(query(box, "SELECT group_concat(kind) FROM campaign_changes") == "rerun,extend");

  r = shell(sweep + "rm " + L + " --yes" + where);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(query(box, "SELECT count(*) FROM campaigns") == "0");
  CHECK_FALSE(std::filesystem::exists(box.path("results/" + L)));
}
