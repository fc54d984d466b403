#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "exec/capture.h"
#include "runner/job_environment.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs the block in bash, as the job scripts do, with the run directory `dir` in SWEEP_RUN_DIR and the
/// working directory elsewhere (the workdir: its subdirectory `work`), followed by a stand-in workload
/// that prints what it sees. The block's files land in `dir` whatever the working directory.
exec::Captured run_block(const TempDir& dir, const JobEnvironment& e) {
  std::filesystem::create_directories(dir.path / "work");
  const std::string script = "export SWEEP_RUN_DIR='" + dir.path.string() + "'\ncd '" + dir.path.string() +
                             "/work' || exit 97\n" + environment_block(e) +
                             "echo \"workload FOO=$FOO BAR=$BAR FROM_SETUP=${FROM_SETUP:-} pwd=$(basename $PWD)\"\n";
  std::ofstream(dir.file("run.sh")) << script;
  const auto r = exec::capture({"bash", dir.file("run.sh")});
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("the environment block runs setup lines in the job's shell and exports literal values") {
  TempDir dir;
  JobEnvironment e;
  e.setup = {"export FROM_SETUP=yes", "echo from setup; mkdir -p sub"};
  e.env = {{"FOO", "it's $HOME; `x`"}, {"BAR", "4"}};
  e.site = "/etc/sweep/site.yaml sha256:ab12";
  const auto r = run_block(dir, e);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "workload FOO=it's $HOME; `x` BAR=4 FROM_SETUP=yes pwd=work\n");
  CHECK(std::filesystem::is_directory(dir.file("work/sub")));  // setup lines run in the working directory
  CHECK(slurp(dir.file("setup.log")) == "from setup\n");
  CHECK(slurp(dir.file("provenance/env_set")) == "FOO=it's $HOME; `x`\nBAR=4\n");
  CHECK(slurp(dir.file("provenance/setup")) == "export FROM_SETUP=yes\necho from setup; mkdir -p sub\n");
  CHECK_THAT(slurp(dir.file("provenance/python")), Catch::Contains("python") && Catch::Contains("3."));
  CHECK(slurp(dir.file("provenance/site")) == "/etc/sweep/site.yaml sha256:ab12\n");
  CHECK_FALSE(std::filesystem::exists(dir.file("setup_failed")));
}

TEST_CASE("a failing setup line stops the job before the workload and says which line failed") {
  TempDir dir;
  JobEnvironment e;
  e.setup = {"true", "echo partial; (exit 7); true\nfalse", "echo never"};
  e.env = {{"FOO", "x"}};
  const auto r = run_block(dir, e);
  CHECK(r.exit_code == 1);  // the line's last command decides, as in any shell
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("sweep: setup line 2 failed with status 1: echo partial; (exit 7); true") &&
                        Catch::Contains("partial"));
  CHECK(slurp(dir.file("setup_failed")) == "format=1\nline=2\nstatus=1\ntext=echo partial; (exit 7); true\n");
  CHECK(slurp(dir.file("setup.log")) == "partial\n");

  TempDir dir2;
  e.setup = {"source ./does-not-exist"};
  const auto r2 = run_block(dir2, e);
  CHECK(r2.exit_code == 1);
  CHECK(slurp(dir2.file("setup_failed")).find("line=1\n") != std::string::npos);
}

TEST_CASE("without setup lines the block only exports and records") {
  TempDir dir;
  const std::string block = environment_block({{{"OMP_NUM_THREADS", "2"}}, {}, ""});
  CHECK(block.find("sweep_setup_failed") == std::string::npos);
  CHECK(block.find("export OMP_NUM_THREADS=2\n") != std::string::npos);
  const auto r = run_block(dir, {{{"FOO", "1"}}, {}, ""});
  CHECK(r.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(dir.file("setup.log")));
  CHECK_FALSE(std::filesystem::exists(dir.file("provenance/site")));
  CHECK(slurp(dir.file("provenance/env_set")) == "FOO=1\n");
}

TEST_CASE("secret variables are not in the block: the job's environment gives them, env_set records ***") {
  TempDir dir;
  JobEnvironment e;
  e.env = {{"FOO", "1"}};
  e.secrets = {"BAR"};
  const std::string block = environment_block(e);
  CHECK(block.find("BAR=") == std::string::npos);
  ::setenv("BAR", "s3cr3t-value", 1);  // as the executor passes it
  const auto r = run_block(dir, e);
  ::unsetenv("BAR");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("BAR=s3cr3t-value"));
  CHECK(slurp(dir.file("provenance/env_set")) == "FOO=1\nBAR=***\n");
}
