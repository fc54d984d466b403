// Secrets on the local executor (docs/experiment-format.md#secrets), the scenario of
// tests/e2e/secrets_scenario.h: after a campaign, its report and a resume, no marker is in any file
// under the results and reports, the database's dump or `show`; the workload received each one. A
// missing reference and a secret file others can read are refused before anything runs.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/secrets_scenario.h"

using namespace e2e;
using namespace secrets_test;
namespace fs = std::filesystem;


TEST_CASE("secrets reach the workload and nothing sweep writes or prints") {
  Sandbox box;
  const Markers m;
  prepare(box, m);
  const auto run = box.sweep({"run", "secrets.yaml", "--label", "s"});
  INFO(run.out << run.err);
  CHECK(run.exit_code != 0);  // the point fail=1 fails
  CHECK(run.err.find("\"env.HF_TOKEN\" is a literal secret") != std::string::npos);
  CHECK(run.err.find("{from_env: HF_TOKEN}") != std::string::npos);
  CHECK(run.err.find("setup line assigns a literal secret to API_KEY") != std::string::npos);
  {
    auto db = box.db();
    REQUIRE(scalar(db, "SELECT COUNT(*) FROM runs WHERE state = 'succeeded'") == 1);
  }

  CHECK(check_received(box.path("results/s"), m) == 2);  // the workload received every value

  REQUIRE(box.sweep({"report", "s"}).exit_code == 0);
  expect_no_marker(box, m, "s");
  const auto env_set = shell("cat '" + box.path("results/s") + "'/*/provenance/env_set");
  CHECK(env_set.out.find("HF_TOKEN=***") != std::string::npos);
  CHECK(env_set.out.find("VISIBLE=shown") != std::string::npos);

  SECTION("resume needs the masked literals again, from the controller's environment") {
    ::unsetenv("HF_TOKEN");
    const auto refused = box.sweep({"run", "--resume", "s"});
    CHECK(refused.exit_code != 0);
    CHECK(refused.err.find("secrets.yaml:") != std::string::npos);
    CHECK(refused.err.find("\"env.HF_TOKEN\" was a literal secret, stored masked (***)") != std::string::npos);
    ::setenv("HF_TOKEN", m.literal.c_str(), 1);
    ::setenv("PLAIN", m.marked.c_str(), 1);
    ::setenv("API_KEY", m.setup.c_str(), 1);
    const auto resumed = box.sweep({"run", "--resume", "s"});
    INFO(resumed.out << resumed.err);
    CHECK(resumed.exit_code != 3);
    CHECK(resumed.err.find("stored masked") == std::string::npos);
    CHECK(check_received(box.path("results/s"), m) == 3);  // the failed point ran again, with every value
    CHECK(resumed.err.find("SHA-256") == std::string::npos);
    expect_no_marker(box, m, "s");
    for (const char* v : {"HF_TOKEN", "PLAIN", "API_KEY"}) ::unsetenv(v);
  }
  ::unsetenv("SWEEP_TEST_REF");
  ::unsetenv("NCCL_TEST_TOKEN");
}

TEST_CASE("a missing reference or a secret file others can read is refused before anything runs") {
  Sandbox box;
  const Markers m;
  prepare(box, m);
  const std::string file = box.path("secret.txt");
  ::unsetenv("SWEEP_TEST_REF");
  auto r = box.sweep({"run", "secrets.yaml", "--label", "s"});
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("secrets.yaml:5:") != std::string::npos);
  CHECK(r.err.find("SWEEP_TEST_REF is not set") != std::string::npos);
  CHECK_FALSE(fs::exists(box.path("results/s")));

  ::setenv("SWEEP_TEST_REF", m.from_env.c_str(), 1);
  ::chmod(file.c_str(), 0640);
  r = box.sweep({"run", "secrets.yaml", "--label", "s"});
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("secrets.yaml:6:") != std::string::npos);
  CHECK(r.err.find("too open") != std::string::npos);
  CHECK_FALSE(fs::exists(box.path("results/s")));
  ::unsetenv("SWEEP_TEST_REF");
}
