// What changed, and the hardware key (docs/forecasts.md, "What changed", "The hardware key"), on real
// campaigns of a small shell workload. This machine has no GPU: the GPUs a campaign ran on come from a
// fake `nvidia-smi` first on PATH (a script printing what `nvidia-smi -L` and its banner print), which
// sweep's own provenance reads as it would the real one. The NCCL version is the bundled nccl-version's
// answer, which this machine cannot vary: the NCCL change is written into the real SQLite file's
// run_provenance rows (sqlite, as a later NCCL would have recorded it).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <SQLiteCpp/Database.h>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// A directory holding an `nvidia-smi` that reports two GPUs of `model`.
std::string fake_nvidia_smi(const Sandbox& box, const std::string& name, const std::string& model) {
  const std::string script = box.write(
      name + "/nvidia-smi",
      "#!/bin/sh\ncase \"$1\" in\n"
      "  -L) printf 'GPU 0: " + model + " (UUID: GPU-11111111-2222-3333-4444-555555555555)\\n"
      "GPU 1: " + model + " (UUID: GPU-11111111-2222-3333-4444-666666666666)\\n' ;;\n"
      "  topo) exit 1 ;;\n"
      "  *) printf '| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4     |\\n' ;;\n"
      "esac\n");
  fs::permissions(script, fs::perms::owner_all);
  return box.path(name);
}

/// PATH with `dir` first, for the scope: the sweep processes the test starts inherit it.
class PathFirst {
 public:
  explicit PathFirst(const std::string& dir) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", (dir + ":" + old_).c_str(), 1);
  }
  ~PathFirst() { ::setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

void set_shift(const Sandbox& box, int n1, int n2) {
  box.write("shift-1.txt", std::to_string(n1) + "\n");
  box.write("shift-2.txt", std::to_string(n2) + "\n");
}

Result run_on(const Sandbox& box, const std::string& gpus, const std::string& label) {
  const PathFirst path(gpus);
  return box.sweep({"run", "speed.yaml", "--label", label});
}

}  // namespace

TEST_CASE("hardware change: compare refuses a baseline from other GPUs, and compares with --allow-hardware-change") {
  Sandbox box;
  write_speed_experiment(box, 3);
  set_shift(box, 0, 0);
  const std::string a100 = fake_nvidia_smi(box, "a100", "NVIDIA A100-SXM4-80GB");
  const std::string h100 = fake_nvidia_smi(box, "h100", "NVIDIA H100 80GB HBM3");
  for (const auto& [gpus, label] : {std::pair{a100, "a"}, std::pair{a100, "a2"}, std::pair{h100, "h"}}) {
    const auto r = run_on(box, gpus, label);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance p JOIN runs r ON r.id = p.run_id JOIN campaigns c ON c.id = r.campaign_id "
                   "WHERE c.label = 'h' AND p.key = 'gpu.model' AND p.value = 'NVIDIA H100 80GB HBM3'") == 6);

  // The same GPUs on this one host: no refusal, and no changed line (nodes, kernel, GPU all the same).
  const auto same = box.sweep({"compare", "a", "a2"});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, !Catch::Contains("changed:") && !Catch::Contains("hardware changed"));

  const auto refused = box.sweep({"compare", "a", "h"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.empty());
  CHECK_THAT(refused.err, Catch::Contains("the baseline a ran on other hardware than h: gpu.model NVIDIA A100-SXM4-80GB -> "
                                          "NVIDIA H100 80GB HBM3 (hardware key: gpu.model, gpu.count, cpu_model)") &&
                              Catch::Contains("--allow-hardware-change"));

  const auto allowed = box.sweep({"compare", "a", "h", "--allow-hardware-change"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::StartsWith("hardware changed (--allow-hardware-change): gpu.model NVIDIA A100-SXM4-80GB -> "
                                            "NVIDIA H100 80GB HBM3\n"));
  CHECK_THAT(allowed.out, Catch::Contains("\nchanged: GPU NVIDIA A100-SXM4-80GB (2) -> NVIDIA H100 80GB HBM3 (2)\n") &&
                              Catch::Contains("h vs a: passed"));
  const auto json = box.sweep({"compare", "a", "h", "--allow-hardware-change", "--format", "json"});
  CHECK(json.exit_code == 0);
  CHECK_THAT(json.out, Catch::StartsWith("{"));
  CHECK_THAT(json.err, Catch::Contains("hardware changed (--allow-hardware-change): gpu.model"));

  // Another key: judged by the CPU alone, the GPUs are no refusal (they are still named as changed).
  const auto cpu_only = box.sweep({"compare", "a", "h", "--hardware-key", "cpu_model"});
  CHECK(cpu_only.exit_code == 0);
  CHECK_THAT(cpu_only.out, Catch::Contains("changed: GPU "));
  // The site's key, and a bad one named with its place.
  const std::string site = box.write("site.yaml", "format: 1\nhardware_key: [cpu_model]\n");
  CHECK(box.sweep({"compare", "a", "h", "--site", site}).exit_code == 0);
  const std::string bad = box.write("bad.yaml", "format: 1\nhardware_key: [gpu.model, 'a b']\n");
  const auto bad_site = box.sweep({"compare", "a", "h", "--site", bad});
  CHECK(bad_site.exit_code == 3);
  CHECK_THAT(bad_site.err, Catch::Contains("bad.yaml:2:27:"));
  const auto bad_key = box.sweep({"compare", "a", "h", "--hardware-key", "gpu.model,$(x)"});
  CHECK(bad_key.exit_code == 2);
  CHECK_THAT(bad_key.err, Catch::Contains("--hardware-key \"$(x)\""));
}

TEST_CASE("hardware change: another NCCL is named as changed, not refused (not in the default key)") {
  Sandbox box;
  write_speed_experiment(box, 3);
  set_shift(box, 0, 0);
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "old"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "new"}).exit_code == 0);
  {
    // What nccl-version would have recorded under NCCL 2.19.3 and 2.21.5 (this machine has one NCCL or none).
    SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    for (const auto& [label, version] : {std::pair{"old", "2.19.3"}, std::pair{"new", "2.21.5"}})
      db.exec(std::string("INSERT OR REPLACE INTO run_provenance (run_id, attempt, key, value) SELECT r.id, r.attempt, "
                          "'nccl.version', '") + version + "' FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = '" +
              label + "'");
  }
  const auto text = box.sweep({"compare", "old", "new"});
  INFO(text.out << text.err);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("\nchanged: NCCL 2.19.3 -> 2.21.5\n"));
  CHECK_THAT(text.out, !Catch::Contains("hardware changed"));
  const auto junit = box.sweep({"compare", "old", "new", "--format", "junit"});
  CHECK_THAT(junit.out, Catch::Contains("<property name=\"changed\" value=\"NCCL 2.19.3 -&gt; 2.21.5\"/>"));
  // With NCCL in the key, the same pair is refused.
  const auto keyed = box.sweep({"compare", "old", "new", "--hardware-key", "nccl.version"});
  CHECK(keyed.exit_code == 2);
  CHECK_THAT(keyed.err, Catch::Contains("nccl.version 2.19.3 -> 2.21.5"));
}

TEST_CASE("hardware change: nightly refuses a pinned baseline from other GPUs, and compares with the flag") {
  Sandbox box;
  write_speed_experiment(box, 3);
  set_shift(box, 0, 0);
  const std::string a100 = fake_nvidia_smi(box, "a100", "NVIDIA A100-SXM4-80GB");
  const std::string h100 = fake_nvidia_smi(box, "h100", "NVIDIA H100 80GB HBM3");
  {
    const PathFirst path(a100);
    const auto first = box.sweep({"nightly", "speed.yaml", "--date", "2026-03-01", "--no-figures"});
    INFO(first.out << first.err);
    REQUIRE(first.exit_code == 0);
  }
  const PathFirst path(h100);
  const auto refused = box.sweep({"nightly", "speed.yaml", "--date", "2026-03-02", "--no-figures"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.out, Catch::StartsWith("nightly-speed-2026-03-02: REFUSED, the baseline ran on other hardware: the "
                                            "baseline nightly-speed-2026-03-01 ran on other hardware than "
                                            "nightly-speed-2026-03-02: gpu.model NVIDIA A100-SXM4-80GB -> NVIDIA H100 80GB HBM3"));
  CHECK_THAT(refused.out, Catch::Contains("--allow-hardware-change"));
  CHECK_THAT(read_file(box.path("reports/nightly-speed-2026-03-02/nightly.txt")), Catch::Contains("ran on other hardware"));
  // Again with the flag: the finished night is compared, the hardware change first.
  const auto allowed = box.sweep({"nightly", "speed.yaml", "--date", "2026-03-02", "--no-figures", "--allow-hardware-change"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::StartsWith("nightly-speed-2026-03-02: passed: against nightly-speed-2026-03-01"));
  CHECK_THAT(allowed.out, Catch::Contains("\nhardware changed (--allow-hardware-change): gpu.model NVIDIA A100-SXM4-80GB -> "
                                          "NVIDIA H100 80GB HBM3\n") &&
                              Catch::Contains("changed: GPU NVIDIA A100-SXM4-80GB (2) -> NVIDIA H100 80GB HBM3 (2)"));
  CHECK_THAT(read_file(box.path("reports/nightly-speed-2026-03-02/nightly.txt")),
             Catch::StartsWith("hardware changed (--allow-hardware-change): gpu.model"));
}

TEST_CASE("hardware change: check refuses a campaign recorded on another system, and prints its hardware") {
  Sandbox box;
  write_speed_experiment(box, 2);
  set_shift(box, 0, 0);
  const std::string lab = box.write("lab.yaml", "format: 1\nname: lab\nreferences:\n  - {metric: speed, value: 1000, lower: -0.5}\n");
  const std::string national = box.write("national.yaml", "format: 1\nname: national\nreferences:\n  - {metric: speed, value: 1000, lower: -0.5}\n");
  const std::string gpus = fake_nvidia_smi(box, "gpus", "NVIDIA H100 80GB HBM3");
  {
    const PathFirst path(gpus);
    const auto run = box.sweep({"run", "speed.yaml", "--label", "s", "--site", lab});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
  }
  const auto same = box.sweep({"check", "s", "--site", lab});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::StartsWith("hardware: gpu.model NVIDIA H100 80GB HBM3; gpu.count 2; cpu_model "));
  const auto refused = box.sweep({"check", "s", "--site", national});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("s ran on system \"lab\", not on \"national\" whose references apply") &&
                              Catch::Contains("--allow-hardware-change"));
  const auto other = box.sweep({"check", "s", "--site", lab, "--system", "national"});
  CHECK(other.exit_code == 2);
  const auto allowed = box.sweep({"check", "s", "--site", national, "--allow-hardware-change"});
  INFO(allowed.out << allowed.err);
  CHECK(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::StartsWith("changed: system lab -> national\nhardware: gpu.model NVIDIA H100 80GB HBM3"));
}
