// The job scripts' own Open MPI session directory: mpiruns of runs side by side on one machine.
#include <catch2/catch.hpp>

#include <SQLiteCpp/Statement.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "e2e/harness.h"

TEST_CASE("mpiruns of runs side by side each have their own Open MPI session directory, removed when the run ends") {
  // Open MPI 4 shares /tmp/ompi.<host>.<uid> between mpiruns, and one's cleanup can remove it while
  // another creates its own in it (open-mpi/ompi#8510). Each run's job script gives its mpiruns a base
  // of their own; the experiment's env may name another.
  e2e::Sandbox box;
  box.write("ompi.yaml", "name: ompi\nmatrix: {n: [1, 2, 3, 4]}\n"
                         "workload:\n  launcher: mpirun\n"
                         "  command: sh -c 'echo \"base $OMPI_MCA_orte_tmpdir_base\"; ls -d \"$OMPI_MCA_orte_tmpdir_base\"/ompi.*'\n");
  const auto r = box.sweep({"run", "ompi.yaml", "--label", "o", "-j", "2"});
  INFO("stderr:\n" << r.err << "stdout:\n" << r.out);
  REQUIRE(r.exit_code == 0);
  auto db = box.db();
  std::set<std::string> bases;
  SQLite::Statement runs(db, "SELECT run_dir FROM runs");
  while (runs.executeStep()) {
    const std::string out = e2e::read_file(runs.getColumn(0).getString() + "/stdout");
    INFO(out);
    const auto at = out.find("base ");
    REQUIRE(at != std::string::npos);
    const std::string base = out.substr(at + 5, out.find('\n', at) - at - 5);
    CHECK_THAT(base, Catch::StartsWith(std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/sweep-ompi."));
    CHECK_THAT(out, Catch::Contains(base + "/ompi."));  // Open MPI made its session directory there
    CHECK_FALSE(std::filesystem::exists(base));
    bases.insert(base);
  }
  CHECK(bases.size() == 4);

  box.write("own.yaml", "name: own\nmatrix: {n: [1]}\nenv: {OMPI_MCA_orte_tmpdir_base: " + box.path("mine") + "}\n"
                        "workload:\n  launcher: mpirun\n  command: sh -c 'echo \"base $OMPI_MCA_orte_tmpdir_base\"'\n");
  const auto own = box.sweep({"run", "own.yaml", "--label", "own"});
  INFO(own.err);
  REQUIRE(own.exit_code == 0);
  const std::string out = e2e::shell("cat " + box.path("results/own") + "/*/stdout").out;
  CHECK_THAT(out, Catch::StartsWith("base " + box.path("mine") + "\n"));
  CHECK_THAT(out, !Catch::Contains("sweep-ompi"));
}
