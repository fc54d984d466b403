#include "slurm/expected_start.h"

#include <catch2/catch.hpp>

using namespace sweep::slurm;

TEST_CASE("sbatch --test-only: the expected start, its nodes and partition") {
  // Slurm 22.05 on the development cluster, as printed.
  CHECK(parse_test_only("sbatch: Job 1 to start at 2026-11-27T12:16:24 using 1 processors on nodes n1 in partition debug\n") ==
        "2026-11-27T12:16:24 on n1 in partition debug");
  CHECK(parse_test_only("sbatch: warning: something\nsbatch: Job 7 to start at 2026-11-28T00:00:00 using 8 processors on "
                        "nodes n[1-2] in partition gpu") == "2026-11-28T00:00:00 on n[1-2] in partition gpu");
  CHECK_FALSE(parse_test_only("allocation failure: Requested node configuration is not available"));
  CHECK_FALSE(parse_test_only(""));
}
