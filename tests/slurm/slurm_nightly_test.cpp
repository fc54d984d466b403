// sweep nightly on the development cluster: experiments/nightly.yaml through the Slurm executor with
// srun as the launcher, the three nights of tests/e2e/nightly_scenario.h. The two emulated nodes share
// this machine's cores, so runs go one at a time (--max-queued 1), as timings on a real cluster's nodes
// would not disturb each other; 3 repetitions keep the test short and still decide a 4x slowdown.
#include "e2e/nightly_scenario.h"
#include "slurm/slurm_harness.h"

TEST_CASE("sweep nightly on the cluster: pinned first, a slowed night regresses with exit 1, an unchanged night passes") {
  e2e::Sandbox box;
  nightly_test::three_nights(box, [&](const std::string& date, const std::string& env, const std::string& args) {
    return e2e::shell("cd " + box.dir().string() + " && " + env + " " + SWEEP_BIN + " nightly " + SWEEP_SOURCE_DIR +
                      "/experiments/nightly.yaml --date " + date + args +
                      " --executor slurm --set launcher=srun --set repetitions=3 --max-queued 1 --poll-max 1");
  }, 3);
}
