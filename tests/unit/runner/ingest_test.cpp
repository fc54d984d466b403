#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "runner/ingest.h"
#include "temp_dir.h"

using namespace sweep;
using store::RunState;

namespace {

parse::Extraction found(std::initializer_list<const char*> names) {
  parse::Extraction e;
  for (const char* n : names) e.observations.push_back({n, 0, 1.0, "", "higher"});
  return e;
}

exec::Outcome exited(int code) { return exec::Outcome{"1", code, 0, false, 0.5}; }

}  // namespace

TEST_CASE("judging an attempt: timeout, signal, exit code, then missing metrics") {
  spec::Success success;
  success.metrics = {"a", "b"};
  const struct {
    exec::Outcome outcome;
    parse::Extraction extraction;
    RunState state;
    const char* cls;
    const char* reason;
  } cases[] = {
      {exited(0), found({"a", "b"}), RunState::succeeded, "", ""},
      {exited(3), found({"a", "b"}), RunState::failed, "exit_code", "exited with code 3 (expected 0)"},
      {exited(0), found({"a"}), RunState::failed, "missing_metric", "required metric not found: b"},
      {exited(0), found({}), RunState::failed, "missing_metric", "required metrics not found: a, b"},
      {exec::Outcome{"1", -1, 9, false, 1}, found({"a", "b"}), RunState::failed, "signal", "killed by signal 9 (SIGKILL)"},
      {exec::Outcome{"1", -1, 15, true, 2}, found({}), RunState::failed, "timeout", "exceeded its time limit after 2.0 s"},
  };
  for (const auto& c : cases) {
    const auto r = runner::judge(c.outcome, c.extraction, success);
    CHECK(r.state == c.state);
    CHECK(r.failure_class == c.cls);
    CHECK(r.failure_reason == c.reason);
  }
  const auto kept = runner::judge(exited(3), found({"a"}), success);
  CHECK(kept.metrics.size() == 1);  // metrics of failed attempts are kept
  CHECK(kept.exit_code == std::optional<int>(3));
}

TEST_CASE("ingest reads the run directory and writes exit_status") {
  TempDir dir;
  std::ofstream(dir.file("stdout")) << "x=5\nx=7\n";
  std::ofstream(dir.file("stderr")) << "";
  parse::Extractor extractor({{"x", "", "higher", parse::Rule::Kind::regex, "x=(?<value>\\d+)", "stdout", {}, "each"}});
  spec::Success success;
  success.metrics = {"x"};
  const auto r = runner::ingest(exited(0), dir.path.string(), extractor, success, false, false);
  CHECK(r.state == RunState::succeeded);
  REQUIRE(r.metrics.size() == 2);
  CHECK(r.metrics[1].value == 7);
  CHECK(r.metrics[1].index == 1);
  CHECK(std::count(r.provenance.begin(), r.provenance.end(), std::pair<std::string, std::string>("matches.x", "2")) == 1);
  std::ifstream status(dir.file("exit_status"));
  std::string first;
  std::getline(status, first);
  CHECK(first == "format=1");
}

TEST_CASE("judging an attempt: a rule without reduce that matched more than once fails the run, naming the fix") {
  const parse::Extractor loose({{"loss", "", "lower", parse::Rule::Kind::regex, "loss (?<value>[0-9.]+)", "stdout",
                                 SourceLocation{"exp.yaml", 12, 5}, ""}});
  spec::Success success;
  success.metrics = {"loss"};
  const parse::Extraction e = loose.extract({{"stdout", "loss 0.9\nloss 0.5\nloss 0.27\n"}});
  const auto r = runner::judge(exited(0), e, success);
  CHECK(r.state == RunState::failed);
  CHECK(r.failure_class == "unreduced_metric");
  CHECK(r.failure_reason == "metric \"loss\" matched 3 times in this run's stdout; say reduce: last (or first, mean, "
                            "min, max, sum; each keeps every match as its own index) in its rule at exp.yaml:12:5");
  CHECK(r.metrics.size() == 3);  // kept per index for the record, never averaged
  CHECK(r.provenance == store::KeyValues{{"matches.loss", "3"}});
  // A crash is the first thing to say about a run, whatever its output matched.
  CHECK(runner::judge(exited(2), e, success).failure_class == "exit_code");

  const parse::Extractor last({{"loss", "", "lower", parse::Rule::Kind::regex, "loss (?<value>[0-9.]+)", "stdout",
                                SourceLocation{"exp.yaml", 12, 5}, "last"}});
  const auto kept = runner::judge(exited(0), last.extract({{"stdout", "loss 0.9\nloss 0.5\nloss 0.27\n"}}), success);
  CHECK(kept.state == RunState::succeeded);
  REQUIRE(kept.metrics.size() == 1);
  CHECK(kept.metrics[0].value == 0.27);
  CHECK(kept.provenance == store::KeyValues{{"matches.loss", "3"}});
}

TEST_CASE("ingest: an earlier ingest's warnings file goes when a new ingest has none") {
  TempDir dir;
  std::ofstream(dir.file("stdout")) << "x=5\n";
  std::ofstream(dir.file("stderr")) << "";
  std::ofstream(dir.file("ingest_warnings")) << "telemetry.n1: refused: a warning of the first ingest\n";
  parse::Extractor extractor({{"x", "", "higher", parse::Rule::Kind::regex, "x=(?<value>\\d+)", "stdout", {}, ""}});
  const auto r = runner::ingest(exited(0), dir.path.string(), extractor, spec::Success{}, false, false);
  CHECK(r.state == RunState::succeeded);
  CHECK_FALSE(std::ifstream(dir.file("ingest_warnings")).good());
  CHECK(std::none_of(r.provenance.begin(), r.provenance.end(), [](const auto& kv) { return kv.first == "ingest_warnings"; }));
}

TEST_CASE("ingest records the network and transports NCCL_DEBUG=INFO reported, from stdout and stderr") {
  TempDir dir;
  // Lines of real NCCL output (NVIDIA/nccl-tests issue 185 and NVIDIA/nccl issue 429; tests/unit/parse/
  // nccl_transports_test.cpp names them).
  std::ofstream(dir.file("stdout")) << "x=5\n"
                                       "machine-1:16194:18583 [3] NCCL INFO Channel 00 : 11[3e000] -> 9[1b000] via P2P/direct pointer\n";
  std::ofstream(dir.file("stderr")) << "dgxh100-4:460770:460842 [0] NCCL INFO Using network IB\n"
                                       "machine-2:41626:45225 [7] NCCL INFO Channel 03 : 7[b2000] -> 14[b1000] [send] via NET/IB/0/GDRDMA\n";
  parse::Extractor extractor({{"x", "", "higher", parse::Rule::Kind::regex, "x=(?<value>\\d+)", "stdout", {}, ""}});
  const auto r = runner::ingest(exited(0), dir.path.string(), extractor, spec::Success{}, false, false);
  using KV = std::pair<std::string, std::string>;
  CHECK(std::count(r.provenance.begin(), r.provenance.end(), KV("nccl.net", "IB")) == 1);
  CHECK(std::count(r.provenance.begin(), r.provenance.end(), KV("nccl.transports", "NET/IB/GDRDMA,P2P/direct")) == 1);
  // A run whose output has no such lines gets neither key.
  std::ofstream(dir.file("stderr"), std::ios::trunc) << "";
  std::ofstream(dir.file("stdout"), std::ios::trunc) << "x=5\n";
  const auto quiet = runner::ingest(exited(0), dir.path.string(), extractor, spec::Success{}, false, false);
  CHECK(std::none_of(quiet.provenance.begin(), quiet.provenance.end(), [](const KV& kv) { return kv.first.starts_with("nccl."); }));
}

TEST_CASE("ingest: the container check's failure is the attempt's, its provenance container.* keys") {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "provenance");
  std::ofstream(dir.file("provenance/container"))
      << "format=1\nruntime=charliecloud\nruntime_version=ch-run 0.31\nimage=/img/a\nimage_kind=directory\n"
         "image_id=sha256:12ab\ngpus=true\nimage_id_error=sweep-image-id: status 6: cannot read /img/a/x\n";
  std::ofstream(dir.file("provenance/container_env")) << "NCCL_DEBUG=INFO\nUCX_TLS=rc\n";
  std::ofstream(dir.file("container_check.log")) << "ch-run[12]: error: can't execve(2): /bin/sh\n";
  parse::Extractor extractor({{"x", "", "higher", parse::Rule::Kind::regex, "x=(?<value>\\d+)", "stdout", {}, ""}});
  spec::Success success;
  success.metrics = {"x"};
  const struct {
    const char* cls;
    const char* stored;
  } classes[] = {{"CONTAINER_RUNTIME", "container_runtime"}, {"CONTAINER_IMAGE", "container_image"},
                 {"CONTAINER_GPU", "container_gpu"}, {"CONTAINER", "container"}, {"NOT_A_CLASS", "container"}};
  for (const auto& c : classes) {
    std::ofstream(dir.file("container_failed")) << "format=1\nclass=" << c.cls << "\ntext=the check's text on node n1\n";
    const auto r = runner::ingest(exited(2), dir.path.string(), extractor, success, false, false);
    CHECK(r.state == RunState::failed);
    CHECK(r.failure_class == c.stored);
    CHECK(r.failure_reason ==
          "the check's text on node n1\n--- last 1 line of container_check.log ---\nch-run[12]: error: can't execve(2): /bin/sh");
    CHECK(r.exit_code == std::optional<int>(2));
  }
  const auto r = runner::ingest(exited(2), dir.path.string(), extractor, success, false, false);
  const auto value = [&](const std::string& key) {
    for (const auto& [k, v] : r.provenance)
      if (k == key) return v;
    return std::string("(absent)");
  };
  CHECK(value("container.runtime") == "charliecloud");
  CHECK(value("container.runtime_version") == "ch-run 0.31");
  CHECK(value("container.image") == "/img/a");
  CHECK(value("container.image_kind") == "directory");
  CHECK(value("container.image_id") == "sha256:12ab");
  CHECK(value("container.gpus") == "true");
  CHECK(value("container.image_id_error") == "sweep-image-id: status 6: cannot read /img/a/x");
  CHECK(value("container.format") == "(absent)");
  CHECK(value("job.container") == "(absent)");
  CHECK(value("job.container_env") == "NCCL_DEBUG=INFO\nUCX_TLS=rc");
  // A timed-out run stays a timeout, as with setup_failed.
  CHECK(runner::ingest(exec::Outcome{"1", -1, 15, true, 2}, dir.path.string(), extractor, success, false, false).failure_class == "timeout");
}
