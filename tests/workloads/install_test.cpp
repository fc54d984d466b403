// Installed like a tool: `cmake --install` into a temporary prefix, then a campaign with a bundled program
// run by the installed sweep from an unrelated directory, finding collbench in <prefix>/libexec/sweep and
// the job-script templates in <prefix>/share/sweep/templates, not in the build or source tree.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "e2e/harness.h"

namespace fs = std::filesystem;

TEST_CASE("an installed sweep runs a bundled program from its prefix, with its own templates") {
  e2e::Sandbox box;
  const std::string prefix = box.path("prefix");
  const auto install = e2e::shell("cmake --install " + SWEEP_BUILD_DIR + " --prefix " + prefix + " 2>&1");
  INFO(install.out);
  REQUIRE(install.exit_code == 0);
  for (const char* file : {"bin/sweep", "libexec/sweep/collbench", "libexec/sweep/sweep-telemetry", "libexec/sweep/sweep-image-id",
                           "share/sweep/templates/local/run.sh.mustache",
                           "share/sweep/templates/slurm/array.sh.mustache", "share/sweep/experiments/demo.yaml"})
    CHECK(fs::exists(prefix + "/" + file));
  // A marker in the installed template shows which template directory the run used.
  const std::string local_template = prefix + "/share/sweep/templates/local/run.sh.mustache";
  std::string text = e2e::read_file(local_template);
  text.insert(text.find('\n') + 1, "# installed template\n");
  std::ofstream(local_template, std::ios::trunc) << text;

  box.write("elsewhere/cb.yaml", "name: cb\nmatrix: {backend: [gloo]}\nworkload:\n  bundled: collbench\n  launcher: mpirun\n"
                                 "  args: {backend: \"{{backend}}\", op: allreduce, min-bytes: 1K, iters: 2}\n");
  const auto run = e2e::shell("cd " + box.path("elsewhere") + " && env -u SWEEP_BUNDLED_DIR -u SWEEP_TEMPLATES " + prefix +
                              "/bin/sweep run cb.yaml --label i 2>&1");
  INFO(run.out);
  REQUIRE(run.exit_code == 0);
  const auto script = e2e::shell("cat " + box.path("elsewhere/results/i") + "/*.rep0.attempt1/run.sh");
  CHECK_THAT(script.out, Catch::Contains("# installed template") &&
                             Catch::Contains(fs::path(prefix + "/libexec/sweep/collbench").lexically_normal().string()));
  const auto version = e2e::shell(prefix + "/bin/sweep --version && " + prefix + "/libexec/sweep/collbench --version");
  CHECK_THAT(version.out, Catch::Matches("sweep [0-9.]+\ncollbench [0-9.]+\n"));
}
