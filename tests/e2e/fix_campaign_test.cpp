// Fixing a campaign after the fact (docs/campaigns.md, "Fixing a campaign"): a real Python 3 training
// script whose metric regex is first wrong, then fixed by `sweep reparse --from`; rerun, extend and rm,
// each on real processes and a real SQLite file, and rm in a run root holding a hostile symlink.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

// Prints its throughput through print() and logs progress through logging (stderr); lr=0.5 diverges
// with a traceback.
const char* kTrain = R"(import logging, sys
logging.basicConfig(level=logging.INFO)
batch, lr = int(sys.argv[1]), float(sys.argv[2])
logging.info("starting batch=%d lr=%g", batch, lr)
if lr > 0.2:
    raise FloatingPointError("loss is nan")
print(f"throughput: {batch * 10.0 + lr:.3f} samples/s", flush=True)
)";

std::string experiment(const Sandbox& box, const std::string& regex, const std::string& extra_command = "") {
  return "name: train\ntelemetry: false\nmatrix:\n  batch: [16, 32]\n  lr: [0.01, 0.5]\nworkload:\n  command: python3 " +
         box.path("train.py") + " {{batch}} {{lr}}" + extra_command +
         "\nmetrics:\n  - {name: throughput, unit: samples/s, better: higher, regex: '" + regex + "'}\n";
}

const std::string kWrong = R"(throughput=(?<value>[0-9.]+))";
const std::string kFixed = R"(throughput: (?<value>[0-9.]+) samples/s)";

std::string state_of(SQLite::Database& db, const char* batch, const char* lr) {
  SQLite::Statement q(db, "SELECT r.state || ' ' || r.failure_class FROM runs r "
                          "JOIN point_params b ON b.point_id = r.point_id AND b.name = 'batch' AND b.value = ? "
                          "JOIN point_params l ON l.point_id = r.point_id AND l.name = 'lr' AND l.value = ?");
  q.bind(1, batch);
  q.bind(2, lr);
  return q.executeStep() ? q.getColumn(0).getString() : "";
}

/// A campaign "t" of train.yaml with the wrong regex: 2 runs fail for the metric, 2 by the traceback.
void run_wrong(const Sandbox& box) {
  box.write("train.py", kTrain);
  box.write("train.yaml", experiment(box, kWrong));
  const auto run = box.sweep({"run", "train.yaml", "--label", "t", "--jobs", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 1);
  REQUIRE_THAT(run.out, Catch::Contains("0 succeeded, 4 failed"));
}

}  // namespace

TEST_CASE("reparse --from reads the stored logs again with a fixed regex and re-decides the runs") {
  Sandbox box;
  run_wrong(box);
  auto db = box.db();
  CHECK(state_of(db, "16", "0.01") == "failed missing_metric");
  CHECK(state_of(db, "16", "0.5") == "failed exit_code");
  const long long hash_before = scalar(db, "SELECT length(spec_hash) FROM campaigns");

  // Anything but metrics: differing is refused, naming it, and nothing changes.
  box.write("changed.yaml", experiment(box, kFixed, " --verbose"));
  const auto refused = box.sweep({"reparse", "t", "--from", "changed.yaml"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err, Catch::Contains("only the metrics: section") && Catch::Contains("workload differs"));
  CHECK(scalar(db, "SELECT count(*) FROM metrics") == 0);
  CHECK(scalar(db, "SELECT count(*) FROM campaign_changes") == 0);

  box.write("fixed.yaml", experiment(box, kFixed));
  const auto fixed = box.sweep({"reparse", "t", "--from", "fixed.yaml"});
  INFO(fixed.out << fixed.err);
  REQUIRE(fixed.exit_code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("read the logs of 4 runs again") && Catch::Contains("2 now succeeded") &&
                            Catch::Contains("metric rules revision 1"));
  CHECK(state_of(db, "16", "0.01") == "succeeded ");
  CHECK(state_of(db, "32", "0.01") == "succeeded ");
  CHECK(state_of(db, "16", "0.5") == "failed exit_code");  // the traceback is not a metric's fault
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'throughput'") == 2);
  CHECK(scalar(db, "SELECT count(*) FROM metric_values WHERE metric = 'throughput' AND abs(value - 320.01) < 1e-9") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'matches.throughput' AND value = '1'") == 2);
  // The stored experiment is now the fixed one, its hash the rules' revision, the edit recorded.
  CHECK(scalar(db, "SELECT count(*) FROM campaigns WHERE instr(spec_text, 'samples/s') > 0") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM campaign_changes c JOIN campaigns k ON k.id = c.campaign_id "
                   "WHERE c.kind = 'reparse' AND c.rules_hash = k.spec_hash AND c.user != '' AND c.at != ''") == 1);
  CHECK(hash_before == 64);
  const auto json = nlohmann::json::parse(box.sweep({"show", "t", "--format", "json"}).out);
  CHECK(json["version"] == 6);
  REQUIRE(json["changes"].size() == 1);
  CHECK(json["changes"][0]["kind"] == "reparse");
  CHECK(json["changes"][0]["rules_hash"].get<std::string>().size() == 64);
  const auto show = box.sweep({"show", "t"});
  CHECK_THAT(show.out, Catch::Contains("changes (sweep reparse, rerun, extend):") &&
                           Catch::Contains("reparse: metric rules revision 1"));

  // Reading again with the stored rules gives the same values and a second revision.
  const auto again = box.sweep({"reparse", "t"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("0 now succeeded, 0 now failed; metric rules revision 2"));
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'throughput'") == 2);

  // A resume reruns the diverging runs only: the re-decided ones are succeeded, not left to run again.
  const auto resume = box.sweep({"run", "--resume", "t"});
  INFO(resume.out << resume.err);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE attempt = 1 AND state = 'succeeded'") == 2);
}

TEST_CASE("reparse back to the wrong regex fails the succeeded runs again, all in one revision") {
  Sandbox box;
  run_wrong(box);
  box.write("fixed.yaml", experiment(box, kFixed));
  REQUIRE(box.sweep({"reparse", "t", "--from", "fixed.yaml"}).exit_code == 0);
  const auto back = box.sweep({"reparse", "t", "--from", "train.yaml"});
  INFO(back.out << back.err);
  CHECK_THAT(back.out, Catch::Contains("2 now failed"));
  auto db = box.db();
  CHECK(state_of(db, "16", "0.01") == "failed missing_metric");
  CHECK(scalar(db, "SELECT count(*) FROM metrics") == 0);
  CHECK(scalar(db, "SELECT count(*) FROM campaign_changes WHERE kind = 'reparse'") == 2);
}

TEST_CASE("rerun runs chosen runs again as new attempts, extend adds repetitions, both recorded") {
  Sandbox box;
  run_wrong(box);
  box.write("fixed.yaml", experiment(box, kFixed));
  REQUIRE(box.sweep({"reparse", "t", "--from", "fixed.yaml"}).exit_code == 0);
  auto db = box.db();

  const auto unknown = box.sweep({"rerun", "t", "--where", "size=3"});
  CHECK(unknown.exit_code != 0);
  CHECK_THAT(unknown.err, Catch::Contains("no parameter \"size\"") && Catch::Contains("batch, lr"));

  const auto detach = box.sweep({"rerun", "t", "--detach"});  // a local campaign cannot detach
  CHECK_THAT(detach.err, Catch::Contains("--detach needs a batch executor") && Catch::Contains("nothing was changed"));
  CHECK(scalar(db, "SELECT count(*) FROM campaign_changes") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'pending'") == 0);

  const auto rerun = box.sweep({"rerun", "t", "--where", "batch=32", "--state", "all"});
  INFO(rerun.out << rerun.err);
  CHECK(rerun.exit_code == 1);  // the diverging point fails again
  CHECK(scalar(db, "SELECT count(*) FROM runs r JOIN point_params b ON b.point_id = r.point_id AND b.name = 'batch' "
                   "WHERE b.value = '32' AND r.attempt = 2") == 2);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE attempt = 1") == 2);  // batch 16 untouched
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 6);
  CHECK(state_of(db, "32", "0.01") == "succeeded ");  // its new attempt read with the fixed rules

  const auto failed_only = box.sweep({"rerun", "t", "--where", "lr=0.5"});
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 8);
  CHECK(failed_only.exit_code == 1);

  const auto extend = box.sweep({"extend", "t", "--repetitions", "2", "--where", "lr=0.01"});
  INFO(extend.out << extend.err);
  CHECK(scalar(db, "SELECT count(*) FROM runs") == 8);
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE repetition > 0 AND state = 'succeeded'") == 4);
  SQLite::Statement kinds(db, "SELECT group_concat(kind, ',') FROM (SELECT kind FROM campaign_changes ORDER BY id)");
  REQUIRE(kinds.executeStep());
  CHECK(kinds.getColumn(0).getString() == "reparse,rerun,rerun,extend");
  kinds.reset();  // a statement left stepping would hold its read snapshot
  CHECK_THAT(box.sweep({"show", "t"}).out, Catch::Contains("extend: 2 repetition(s) added to 2 point(s) (points where lr=0.01)"));
  // A point has at most 10,000 runs: 9,998 more on top of its 3 is refused before anything is added.
  const auto too_many = box.sweep({"extend", "t", "--repetitions", "9998", "--where", "lr=0.01"});
  CHECK(too_many.exit_code == 2);
  CHECK_THAT(too_many.err, Catch::Contains("--repetitions 9998: point ") &&
                               Catch::Contains(" has 3 runs, and a point has at most 10000; nothing was added"));
  CHECK(box.sweep({"extend", "t", "--repetitions", "1000000000"}).err ==
        "sweep: --repetitions: expected 1 to 10000 more repetitions, got 1000000000\n");
  CHECK(scalar(db, "SELECT count(*) FROM runs") == 8);

  // One run, named as sweep show lists it: a succeeded one too, since --run alone takes every state.
  SQLite::Statement point(db, "SELECT point_id FROM point_params WHERE name = 'batch' AND value = '16' "
                              "AND point_id IN (SELECT point_id FROM point_params WHERE name = 'lr' AND value = '0.01')");
  REQUIRE(point.executeStep());
  const std::string run_name = point.getColumn(0).getString() + ".rep0";
  point.reset();
  const auto one = box.sweep({"rerun", "t", "--run", run_name});
  INFO(one.out << one.err);
  CHECK(one.exit_code == 1);  // the campaign still has the diverging runs failed
  CHECK_THAT(one.out, Catch::Contains("(1 attempts started now)"));
  CHECK(scalar(db, "SELECT attempt FROM runs WHERE point_id = '" + run_name.substr(0, run_name.size() - 5) +
                       "' AND repetition = 0") == 2);
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 13);  // 8 + 4 new runs + this one
}

TEST_CASE("a label collision names every way on") {
  Sandbox box;
  run_wrong(box);
  box.write("fixed.yaml", experiment(box, kFixed));
  const auto again = box.sweep({"run", "fixed.yaml", "--label", "t"});
  CHECK(again.exit_code != 0);
  CHECK_THAT(again.err, Catch::Contains("already exists") && Catch::Contains("sweep run --resume t") &&
                            Catch::Contains("sweep reparse t --from fixed.yaml") && Catch::Contains("sweep rerun t") &&
                            Catch::Contains("sweep extend t") && Catch::Contains("sweep rm t") &&
                            Catch::Contains("another --label"));
}

TEST_CASE("rm asks, needs --yes without a terminal, and removes rows and run directories") {
  Sandbox box;
  run_wrong(box);
  box.write("other.yaml", experiment(box, kFixed));
  REQUIRE(box.sweep({"run", "other.yaml", "--label", "keep"}).exit_code == 1);
  const std::string root = box.path("results/t");
  REQUIRE(fs::is_directory(root));

  const auto unconfirmed = box.sweep({"rm", "t"});  // stdin is not a terminal here
  CHECK(unconfirmed.exit_code != 0);
  CHECK_THAT(unconfirmed.err, Catch::Contains("give --yes") && Catch::Contains("4 runs"));
  CHECK(fs::is_directory(root));

  const auto removed = box.sweep({"rm", "t", "--yes"});
  INFO(removed.out << removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(!fs::exists(root));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM runs") == 4);  // keep's
  CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'values:t'") == 0);
  CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'values:keep'") == 1);
  CHECK(box.sweep({"ls"}).out.find("keep") != std::string::npos);

  const auto keep_files = box.sweep({"rm", "keep", "--yes", "--keep-files"});
  CHECK(keep_files.exit_code == 0);
  CHECK(fs::is_directory(box.path("results/keep")));
  CHECK(scalar(db, "SELECT count(*) FROM attempts") == 0);
}

TEST_CASE("rm never follows a symlink out of the run root, and refuses a run root that is not the campaign's") {
  Sandbox box;
  run_wrong(box);
  const std::string outside = box.path("precious");
  fs::create_directories(outside + "/data");
  box.write("precious/data/thesis.tex", "years of work\n");
  const std::string root = box.path("results/t");
  fs::create_directory_symlink(outside, root + "/escape");
  fs::create_directory_symlink(outside + "/data", root + "/" + fs::directory_iterator(root)->path().filename().string() + "-link");
  const auto removed = box.sweep({"rm", "t", "--yes"});
  INFO(removed.out << removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(!fs::exists(fs::symlink_status(root)));
  CHECK(read_file(outside + "/data/thesis.tex") == "years of work\n");

  // A run root swapped for a symlink is never deleted through.
  run_wrong(box);
  fs::rename(root, box.path("moved"));
  fs::create_directory_symlink(box.path("moved"), root);
  const auto swapped = box.sweep({"rm", "t", "--yes"});
  CHECK(swapped.exit_code != 0);
  CHECK_THAT(swapped.err, Catch::Contains("not provably the campaign's") && Catch::Contains("nothing was removed"));
  CHECK(fs::is_directory(box.path("moved")));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM campaigns") == 1);
}

TEST_CASE("rm and reparse are refused while the campaign runs") {
  Sandbox box;
  // The run says it started, then waits for the test's `go`: the campaign runs while rm and reparse are tried.
  box.write("slow.yaml", "name: slow\ntelemetry: false\nmatrix:\n  n: [1]\nworkload:\n  command: touch '" + box.path("started") +
                         "'; until [ -e '" + box.path("go") + "' ]; do sleep 0.05; done; echo v=1\n"
                         "metrics:\n  - {name: v, better: higher, regex: 'v=(?<value>\\d+)'}\n");
  const int pid = box.spawn_sweep({"run", "slow.yaml", "--label", "s"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);  // a bound on a hang
  while (!fs::exists(box.path("started"))) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const auto rm = box.sweep({"rm", "s", "--yes"});
  CHECK(rm.exit_code != 0);
  CHECK_THAT(rm.err, Catch::Contains("being driven by another sweep"));
  const auto reparse = box.sweep({"reparse", "s"});
  CHECK_THAT(reparse.err, Catch::Contains("being driven by another sweep"));
  CHECK(fs::is_directory(box.path("results/s")));
  box.write("go", "");
  int status = 0;
  ::waitpid(pid, &status, 0);

  // A run still recorded running without a controller (a detached Slurm campaign's queued job) is
  // not removed under it either.
  {
    SQLite::Database raw(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    raw.exec("UPDATE runs SET state = 'running'");
  }
  const auto detached = box.sweep({"rm", "s", "--yes"});
  CHECK_THAT(detached.err, Catch::Contains("1 run still running") && Catch::Contains("sweep cancel s first"));
  CHECK(fs::is_directory(box.path("results/s")));
  {
    SQLite::Database raw(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
    raw.exec("UPDATE runs SET state = 'succeeded'");
  }
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 1);
}
