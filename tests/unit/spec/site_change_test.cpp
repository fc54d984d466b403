// spec/site_change.h: the note a resumed or collected campaign prints when today's site file is not the
// one it started with. Sites read from text as a campaign records them (load_site_text).
#include <catch2/catch.hpp>

#include "spec/site.h"
#include "spec/site_change.h"

using namespace sweep::spec;

namespace {

const std::string kThen =
    "format: 1\n"
    "resources: {partition: gpu, time: 30}\n"
    "env: {NCCL_SOCKET_IFNAME: ib0}\n"
    "setup: [\"module load cuda/12\"]\n";

}  // namespace

TEST_CASE("the same settings from the same path are no change, comments and layout included") {
  const Site then = load_site_text(kThen, "/etc/sweep/site.yaml");
  CHECK(site_change(then, then).empty());
  const Site reflowed = load_site_text("# our cluster\nformat: 1\nresources:\n  partition: gpu\n  time: 30\n"
                                       "env: {NCCL_SOCKET_IFNAME: ib0}\nsetup: [\"module load cuda/12\"]\n",
                                       "/etc/sweep/site.yaml");
  CHECK(site_change(then, reflowed).empty());
  CHECK(site_change(Site{}, Site{}).empty());
}

TEST_CASE("each changed, removed and added setting is named, with the path when it moved") {
  const Site then = load_site_text(kThen, "/etc/sweep/site.yaml");
  const Site now = load_site_text("format: 1\nresources: {partition: cpu, time: 30}\nenv: {OMP_NUM_THREADS: 4}\n",
                                  "/home/u/.config/sweep/site.yaml");
  CHECK(site_change(then, now) ==
        "the site file was /etc/sweep/site.yaml, now /home/u/.config/sweep/site.yaml; resources.partition gpu -> cpu; "
        "env.NCCL_SOCKET_IFNAME removed (was ib0); setup[1] removed (was module load cuda/12); "
        "env.OMP_NUM_THREADS added (4)");
  CHECK(site_change(then, Site{}) ==
        "the site file was /etc/sweep/site.yaml, now none; resources.partition removed (was gpu); resources.time "
        "removed (was 30); env.NCCL_SOCKET_IFNAME removed (was ib0); setup[1] removed (was module load cuda/12)");
}
