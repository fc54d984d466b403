// Hostile parameter values through the Slurm executor and every launcher (srun, mpirun, torchrun-env)
// on the development cluster: each reaches the program as one literal argument, and none is executed
// (a canary file that any of them would create must not appear).
#include <catch2/catch.hpp>

#include <filesystem>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

TEST_CASE("hostile values reach the program literally through sbatch and every launcher, never executed") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string canary = box.path("CANARY");
  const std::vector<std::string> values{"$(touch " + canary + ")", "a'; touch " + canary + "; echo '",
                                        "`touch " + canary + "`", "x\" && touch " + canary + " && \"", "*", "-rf",
                                        "line1\nline2 ; touch " + canary, "'); DROP TABLE runs;--"};
  std::string yaml = "name: hostile\nmatrix:\n  launcher: [srun, mpirun, torchrun-env]\n  v:\n";
  for (const auto& v : values) {
    std::string escaped;
    for (char c : v) escaped += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    yaml += "    - \"" + escaped + "\"\n";
  }
  yaml += "resources: {nodes: 1, ntasks: 1, time: 2}\nexecutor: slurm\nworkload:\n";
  for (const std::string launcher : {"srun", "mpirun", "torchrun-env"})
    yaml += "  - when: \"launcher == '" + launcher + "'\"\n    launcher: " + launcher +
            "\n    command: printf '%s' {{v}} > \"$SWEEP_RUN_DIR/got.txt\"\n";
  box.write("hostile.yaml", yaml);

  const auto run = box.sweep({"run", "hostile.yaml", "--label", unique_label(box, "hostile"), "--poll-max", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(canary));

  auto db = box.db();
  SQLite::Statement q(db, "SELECT p.value, r.run_dir FROM runs r JOIN point_params p ON p.point_id = r.point_id "
                          "WHERE p.name = 'v' AND r.state = 'succeeded'");
  int seen = 0;
  while (q.executeStep()) {
    ++seen;
    INFO(q.getColumn(1).getString());
    CHECK(e2e::read_file(q.getColumn(1).getString() + "/got.txt") == q.getColumn(0).getString());
  }
  CHECK(seen == static_cast<int>(3 * values.size()));
}
