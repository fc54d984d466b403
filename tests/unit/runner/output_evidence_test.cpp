#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runner/output_evidence.h"
#include "util/failure_classes.h"

using namespace sweep;
using namespace sweep::runner;

namespace {
/// A run directory in /tmp, removed at scope exit.
struct RunDir {
  std::string path;
  RunDir() {
    std::string t = (std::filesystem::temp_directory_path() / "sweep-evidence-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~RunDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path + "/" + name, std::ios::binary) << text; }
};
}  // namespace

TEST_CASE("output evidence: stderr first, stdout when stderr is blank, the reason alone when both are") {
  RunDir dir;
  CHECK(with_output_tail("exited with code 2 (expected 0)", failure::kExitCode, dir.path) == "exited with code 2 (expected 0)");
  dir.write("stdout", "step 1\nstep 2\n");
  dir.write("stderr", "\n  \n");
  CHECK(with_output_tail("r", failure::kTimeout, dir.path) == "r\n--- last 2 lines of stdout ---\nstep 1\nstep 2");
  dir.write("stderr", "NCCL WARN rendezvous timed out\n");
  CHECK(with_output_tail("r", failure::kTimeout, dir.path) == "r\n--- last 1 line of stderr ---\nNCCL WARN rendezvous timed out");
}

TEST_CASE("output evidence: a failed setup line quotes setup.log") {
  RunDir dir;
  dir.write("setup.log", "preparing\nmodule: nosuch/9 not found\n");
  dir.write("stderr", "sweep: setup line 2 failed\n");
  CHECK(with_output_tail("setup line 2 failed", failure::kSetup, dir.path) ==
        "setup line 2 failed\n--- last 2 lines of setup.log ---\npreparing\nmodule: nosuch/9 not found");
  CHECK(with_output_tail("exit", failure::kExitCode, dir.path) == "exit\n--- last 1 line of stderr ---\nsweep: setup line 2 failed");
}

TEST_CASE("output evidence: a large log is read from its end only") {
  RunDir dir;
  std::string big(10u << 20, 'x');
  big += "\nthe last words\n";
  dir.write("stderr", big);
  const std::string reason = with_output_tail("r", failure::kExitCode, dir.path);
  CHECK(reason.size() < kTailReadBytes);
  CHECK(reason.substr(reason.size() - 15) == "\nthe last words");
}
