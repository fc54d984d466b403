#pragma once
// A secrets scenario (docs/experiment-format.md#secrets) shared by the local test
// (tests/e2e/secrets_test.cpp) and the development-cluster test (tests/slurm/slurm_secrets_test.cpp):
// marker tokens by reference (the controller's environment, a private file), as secret literals in
// `env` and `setup`, and in the controller's own recorded variables; the checks that none of them is in
// any file under results and reports, the database's dump or `show`, and that the workload got each.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace secrets_test {

using namespace e2e;

inline std::string random_marker(const std::string& tag) {
  std::random_device rd;
  std::string out = "mk" + tag;
  for (int i = 0; i < 24; ++i) out += "0123456789abcdef"[rd() % 16];
  return out;
}

inline std::string sha256_of(const std::string& text) {
  const auto r = shell("printf '%s' '" + text + "' | sha256sum | cut -c1-64");
  return r.out.substr(0, 64);
}

/// Every file under `dir` that contains `marker` (grep -r, binary files included).
inline std::string files_with(const std::string& dir, const std::string& marker) {
  return shell("grep -rla -- '" + marker + "' '" + dir + "' || true").out;
}

struct Markers {
  std::string from_env = random_marker("env"), from_file = random_marker("file"), literal = random_marker("lit"),
              marked = random_marker("marked"), setup = random_marker("setup"), controller = random_marker("ctl");
  std::vector<std::string> all() const { return {from_env, from_file, literal, marked, setup, controller}; }
};

/// The workload writes the SHA-256 of each variable into hashes.txt (never the values), prints one
/// metric, and exits with the point's `fail` (0 or 1).
inline std::string secrets_experiment(const Markers& m, const std::string& head = "") {
  return "name: secrets\n" + head + R"(matrix:
  fail: [0, 1]
env:
  REF_TOKEN: {from_env: SWEEP_TEST_REF}
  FILE_VALUE: {from_file: secret.txt}
  HF_TOKEN: )" + m.literal + R"(
  PLAIN: {value: ")" + m.marked + R"(", secret: true}
  VISIBLE: shown
setup:
  - export API_KEY=)" + m.setup + R"y(
workload:
  command: |
    for v in REF_TOKEN FILE_VALUE HF_TOKEN PLAIN API_KEY; do printf '%s %s\n' "$v" "$(printf '%s' "${!v}" | sha256sum | cut -c1-64)"; done > "$SWEEP_RUN_DIR/hashes.txt"
    echo '{"v": 1, "metric": "ok", "value": 1}'
    exit {{fail}}
)y";
}

inline void expect_no_marker(const Sandbox& box, const Markers& m, const std::string& label) {
  const auto dump = shell("sqlite3 '" + box.path("results/sweep.db") + "' .dump");
  REQUIRE(dump.exit_code == 0);
  const auto show = box.sweep({"show", label});
  const auto json = box.sweep({"show", label, "--format", "json"});
  REQUIRE(show.exit_code == 0);
  REQUIRE(json.exit_code == 0);
  for (const std::string& marker : m.all()) {
    INFO("marker " << marker);
    CHECK(files_with(box.path("results"), marker).empty());
    CHECK(files_with(box.path("reports"), marker).empty());
    CHECK(dump.out.find(marker) == std::string::npos);
    CHECK(show.out.find(marker) == std::string::npos);
    CHECK(json.out.find(marker) == std::string::npos);
  }
  CHECK(dump.out.find("***") != std::string::npos);
}

}  // namespace secrets_test

namespace secrets_test {

/// Writes secrets.yaml (with `head`, e.g. "executor: slurm\n", before its matrix) and secret.txt (mode
/// 600) into the sandbox and puts the by-reference marker and the controller's NCCL_TEST_TOKEN into
/// this process's environment, which `sweep` inherits.
inline void prepare(const e2e::Sandbox& box, const Markers& m, const std::string& head = "") {
  box.write("secrets.yaml", secrets_experiment(m, head));
  const std::string file = box.write("secret.txt", m.from_file + "\n");
  ::chmod(file.c_str(), 0600);
  ::setenv("SWEEP_TEST_REF", m.from_env.c_str(), 1);
  ::setenv("NCCL_TEST_TOKEN", m.controller.c_str(), 1);
}

/// Checks the hashes.txt of every run under `run_root`: each variable had its marker's value; returns
/// how many runs wrote one.
inline int check_received(const std::string& run_root, const Markers& m) {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(run_root)) {
    if (entry.path().filename() != "hashes.txt") continue;
    const std::string hashes = e2e::read_file(entry.path().string());
    INFO(entry.path() << ": " << hashes);
    CHECK(hashes.find("REF_TOKEN " + sha256_of(m.from_env)) != std::string::npos);
    CHECK(hashes.find("FILE_VALUE " + sha256_of(m.from_file)) != std::string::npos);
    CHECK(hashes.find("HF_TOKEN " + sha256_of(m.literal)) != std::string::npos);
    CHECK(hashes.find("PLAIN " + sha256_of(m.marked)) != std::string::npos);
    CHECK(hashes.find("API_KEY " + sha256_of(m.setup)) != std::string::npos);
    ++checked;
  }
  return checked;
}

}  // namespace secrets_test
