#include <catch2/catch.hpp>

#include <algorithm>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::store;

namespace {

CampaignRecord campaign(const std::string& label, int repetitions = 2) {
  CampaignRecord c;
  c.label = label;
  c.experiment = "demo";
  c.spec_path = "experiments/demo.yaml";
  c.spec_text = "name: demo\n";
  c.spec_hash = "abc";
  c.executor = "local";
  c.repetitions = repetitions;
  c.started_at = "2026-11-22T00:00:00.000Z";
  c.git_dirty = true;
  c.run_root = "/tmp/runs";
  return c;
}

std::vector<PointRecord> two_points() {
  return {PointRecord{"p1", 0, {{"batch", "16", "int", false}, {"gpus", "2", "int", true}}},
          PointRecord{"p2", 1, {{"batch", "32", "int", false}, {"gpus", "2", "int", true}}}};
}

/// A masker that knows the secret value "hf_s3cret".
Masker secret_masker() {
  Masker masker;
  masker.add("hf_s3cret");
  return masker;
}

}  // namespace

TEST_CASE("a campaign is created with its points and one pending run per repetition") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c1"), two_points());
  const auto found = db.find_campaign("c1");
  REQUIRE(found);
  CHECK(found->id == id);
  CHECK(found->git_dirty == std::optional<bool>(true));
  CHECK(found->ended_at.empty());
  CHECK_FALSE(db.find_campaign("c2"));

  const auto points = db.points(id);
  REQUIRE(points.size() == 2);
  CHECK(points[1].point_id == "p2");
  CHECK(points[1].params[0].value == "32");
  CHECK(points[1].params[1].derived);

  const auto runs = db.runs(id);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].point_id == "p1");
  CHECK(runs[1].repetition == 1);
  CHECK(runs[3].state == RunState::pending);
  CHECK(runs[3].attempt == 0);
  CHECK_THROWS_AS(db.create_campaign(campaign("c1"), two_points()), Error);
}

TEST_CASE("add_runs: more repetitions of chosen points, numbered on and interleaved") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c1", 2), two_points());
  const std::vector<RunRecord> added = db.add_runs(id, {{"p2", 2}, {"p1", 1}});
  std::vector<std::string> order;
  for (const auto& r : added) order.push_back(r.point_id + "/" + std::to_string(r.repetition));
  CHECK(order == std::vector<std::string>{"p2/2", "p1/2", "p2/3"});
  const auto runs = db.runs(id);
  REQUIRE(runs.size() == 7);
  CHECK(runs[2].point_id == "p1");
  CHECK(runs[2].repetition == 2);
  CHECK(runs[2].state == RunState::pending);
  CHECK(runs[2].id == added[1].id);
  CHECK_THROWS_AS(db.add_runs(id, {{"p1", 1}, {"p9", 1}}), Error);  // p1's run is rolled back with it
  CHECK(db.runs(id).size() == 7);  // nothing half-written
}

TEST_CASE("attempts record outcome, metrics and provenance together") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c1", 1), two_points());
  const auto run = db.runs(id).front();

  CHECK(db.begin_attempt(run.id, "/r/a1", "t1") == 1);
  AttemptResult failed;
  failed.state = RunState::failed;
  failed.exit_code = 3;
  failed.failure_class = "exit_code";
  failed.failure_reason = "exited with code 3";
  db.finish_attempt(run.id, 1, failed);

  CHECK(db.begin_attempt(run.id, "/r/a2", "t2") == 2);
  CHECK_THROWS_AS(db.finish_attempt(run.id, 1, failed), Error);  // a stale attempt is refused
  AttemptResult ok;
  ok.state = RunState::succeeded;
  ok.exit_code = 0;
  ok.elapsed_s = 1.5;
  ok.metrics = {{"time", 0, 1.25, "s", "lower"}, {"time", 1, 1.5, "s", "lower"}};
  ok.provenance = {{"hostname", "n1"}};
  db.finish_attempt(run.id, 2, ok);

  const auto after = db.runs(id).front();
  CHECK(after.state == RunState::succeeded);
  CHECK(after.attempt == 2);
  CHECK(after.run_dir == "/r/a2");
  CHECK(after.elapsed_s == Approx(1.5));
  CHECK(after.failure_class.empty());

  const auto history = db.attempts(run.id);
  REQUIRE(history.size() == 2);
  CHECK(history[0].state == RunState::failed);
  CHECK(history[0].exit_code == std::optional<int>(3));
  CHECK(history[1].state == RunState::succeeded);

  const auto metrics = db.metrics(id);
  REQUIRE(metrics.size() == 2);
  CHECK(metrics[1].metric.index == 1);
  CHECK(metrics[1].metric.value == 1.5);
  CHECK(db.provenance(run.id, 2) == KeyValues{{"hostname", "n1"}});

  const auto counts = db.state_counts(id);
  CHECK(counts[static_cast<int>(RunState::succeeded)].count == 1);
  CHECK(counts[static_cast<int>(RunState::pending)].count == 1);
}

TEST_CASE("a running attempt's scheduler state is set, replaced, read back per running run, and masked") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  db.mask_secrets(secret_masker());
  const auto id = db.create_campaign(campaign("c1", 1), two_points());
  const auto runs = db.runs(id);
  db.begin_attempt(runs[0].id, "/r/a1", "t1");
  db.begin_attempt(runs[1].id, "/r/b1", "t1");
  const std::vector<std::string> keys{"slurm.phase", "slurm.reason"};
  db.set_provenance({{runs[0].id, 1, "slurm.phase", "queued"}, {runs[0].id, 1, "slurm.reason", "ReqNodeNotAvail"},
                     {runs[1].id, 1, "slurm.phase", "queued"}, {runs[1].id, 1, "slurm.reason", "hf_s3cret"}});
  db.set_provenance({{runs[0].id, 1, "slurm.phase", "running"}, {runs[0].id, 1, "slurm.reason", ""}});
  CHECK(db.latest_provenance(id, keys, RunState::running) ==
        std::vector<AttemptValue>{{runs[0].id, 1, "slurm.phase", "running"}, {runs[0].id, 1, "slurm.reason", ""},
                                  {runs[1].id, 1, "slurm.phase", "queued"}, {runs[1].id, 1, "slurm.reason", "***"}});
  AttemptResult ok;
  ok.state = RunState::succeeded;
  ok.provenance = {{"slurm.phase", "ended"}};
  db.finish_attempt(runs[0].id, 1, ok);  // no longer running: not listed; its result's value replaced the state
  CHECK(db.latest_provenance(id, {"slurm.phase"}, RunState::running) ==
        std::vector<AttemptValue>{{runs[1].id, 1, "slurm.phase", "queued"}});
  CHECK(db.provenance(runs[0].id, 1) == KeyValues{{"slurm.phase", "ended"}, {"slurm.reason", ""}});
}

TEST_CASE("known secret values are masked in every failure reason and provenance value written") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  db.mask_secrets(secret_masker());
  const auto id = db.create_campaign(campaign("c1", 1), two_points());
  const auto run = db.runs(id).front();
  db.begin_attempt(run.id, "/r/a1", "t1");
  AttemptResult failed;
  failed.state = RunState::failed;
  failed.failure_class = "criterion";
  failed.failure_reason = "metric hf_s3cret not found";
  failed.provenance = {{"job.comm_env", "NCCL_X=hf_s3cret"}};
  db.finish_attempt(run.id, 1, failed);
  CHECK(db.runs(id).front().failure_reason == "metric *** not found");
  CHECK(db.attempts(run.id).front().failure_reason == "metric *** not found");
  CHECK(db.provenance(run.id, 1) == KeyValues{{"job.comm_env", "NCCL_X=***"}});
}

TEST_CASE("a secret a workload prints into a metric's name or unit is masked there, and in a reparse too") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  db.mask_secrets(secret_masker());
  const auto id = db.create_campaign(campaign("c1", 1), two_points());
  const auto runs = db.runs(id);
  db.begin_attempt(runs[0].id, "/r/a1", "t1");
  AttemptResult ok;
  ok.state = RunState::succeeded;
  // Two names that differ only by the secret mask alike: one row, as INSERT OR REPLACE keeps it.
  ok.metrics = {{"leak_hf_s3cret", 0, 1.0, "s", "lower"}, {"t", 0, 2.0, "hf_s3cret/s", "lower"}, {"leak_***", 0, 3.0, "", ""}};
  ok.provenance = {{"matches.leak_hf_s3cret", "1"}};
  db.finish_attempt(runs[0].id, 1, ok);
  std::vector<std::string> stored;
  for (const MetricRow& row : db.metrics(id)) stored.push_back(row.metric.name + " " + row.metric.unit);
  std::sort(stored.begin(), stored.end());
  CHECK(stored == std::vector<std::string>{"leak_*** ", "t ***/s"});
  CHECK(db.provenance(runs[0].id, 1) == KeyValues{{"matches.leak_***", "1"}});
  ReparsedRun again{runs[0].id, 1, true, RunState::failed, "criterion", "hf_s3cret below 1", {{"x_hf_s3cret", 0, 4.0, "", ""}},
                    {{"matches.x_hf_s3cret", "hf_s3cret"}}};
  db.replace_results(id, {again}, ChangeRecord{0, id, "now", "me", "host", "reparse", "what", ""});
  REQUIRE(db.metrics(id).size() == 1);
  CHECK(db.metrics(id).front().metric.name == "x_***");
  CHECK(db.runs(id).front().failure_reason == "*** below 1");
  CHECK(db.provenance(runs[0].id, 1) == KeyValues{{"matches.x_***", "***"}});
}

TEST_CASE("the database persists across opens") {
  TempDir dir;
  {
    Store db(dir.file("sweep.db"));
    db.create_campaign(campaign("c1"), two_points());
    db.end_campaign(db.find_campaign("c1")->id, "t9");
  }
  Store again(dir.file("sweep.db"));
  REQUIRE(again.campaigns().size() == 1);
  CHECK(again.campaigns()[0].ended_at == "t9");
}

TEST_CASE("a reader is never refused while a campaign is writing") {
  TempDir dir;
  Store writer(dir.file("sweep.db"));
  const auto id = writer.create_campaign(campaign("c1", 50), two_points());
  const auto runs = writer.runs(id);
  std::atomic<bool> done{false};
  std::thread reader_thread([&] {
    Store reader(dir.file("sweep.db"));
    while (!done) {
      CHECK(reader.runs(id).size() == 100);
      reader.metrics(id);
    }
  });
  AttemptResult ok;
  ok.state = RunState::succeeded;
  ok.metrics = {{"x", 0, 1, "", "higher"}};
  for (const auto& r : runs) writer.finish_attempt(r.id, writer.begin_attempt(r.id, "/d", "t"), ok);
  done = true;
  reader_thread.join();
  CHECK(writer.metrics(id).size() == 100);
}

TEST_CASE("reads inside read_consistently see one snapshot while another connection commits") {
  TempDir dir;
  Store writer(dir.file("sweep.db"));
  const auto id = writer.create_campaign(campaign("c1", 1), two_points());
  const auto runs = writer.runs(id);
  AttemptResult ok;
  ok.state = RunState::succeeded;
  ok.metrics = {{"x", 0, 1, "", "higher"}};
  Store reader(dir.file("sweep.db"));
  std::size_t succeeded_before = 99, metrics_after = 99;
  reader.read_consistently([&] {
    succeeded_before = reader.state_counts(id)[static_cast<int>(RunState::succeeded)].count;
    writer.finish_attempt(runs[0].id, writer.begin_attempt(runs[0].id, "/d", "t"), ok);  // committed meanwhile
    metrics_after = reader.metrics(id).size();
  });
  CHECK(succeeded_before == 0);
  CHECK(metrics_after == 0);  // not the run committed after the snapshot began
  CHECK(reader.metrics(id).size() == 1);  // a new read sees it
}

TEST_CASE("a submission begins its tasks' attempts atomically and records the scheduler's answer") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("s1", 1), two_points());
  const auto runs = db.runs(id);
  REQUIRE(runs.size() == 2);
  const auto sub = db.begin_submission(id, "/tmp/sub", "2026-11-22T00:00:01.000Z",
                                       {{runs[0].id, "/tmp/r0/attempt1"}, {runs[1].id, "/tmp/r1/attempt1"}});
  CHECK(sub.state == "submitting");
  REQUIRE(sub.tasks.size() == 2);
  CHECK(sub.tasks[1].task == 1);
  CHECK(sub.tasks[1].run_id == runs[1].id);
  CHECK(sub.tasks[1].attempt == 1);
  for (const auto& r : db.runs(id)) CHECK(r.state == RunState::running);

  db.mark_submitted(sub.id, "4242", "2026-11-22T00:00:02.000Z");
  auto subs = db.submissions(id);
  REQUIRE(subs.size() == 1);
  CHECK(subs[0].state == "submitted");
  CHECK(subs[0].job_id == "4242");
  CHECK(subs[0].tasks.size() == 2);

  const auto second = db.begin_submission(id, "/tmp/sub2", "t", {{runs[0].id, "/tmp/r0/attempt2"}});
  CHECK(second.tasks[0].attempt == 2);
  db.mark_submission_failed(second.id, "sbatch: error: invalid partition");
  subs = db.submissions(id);
  CHECK(subs[1].state == "failed");
  CHECK(subs[1].error == "sbatch: error: invalid partition");
}

TEST_CASE("a submission naming an unknown run leaves nothing behind") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("s2", 1), two_points());
  const auto runs = db.runs(id);
  CHECK_THROWS_AS(db.begin_submission(id, "/tmp/sub", "t", {{runs[0].id, "/a"}, {999999, "/b"}}), Error);
  CHECK(db.submissions(id).empty());
  CHECK(db.runs(id)[0].state == RunState::pending);
}

// Closing any descriptor of a file drops every POSIX lock the process holds on it. A Store that
// opened (and closed) its own descriptor of the database dropped its SQLite connection's shared lock,
// so another process's last close checkpointed and deleted the WAL under a live reader, which then
// read "database disk image is malformed" (seen with four sweep report readers during sweep collect).
TEST_CASE("a store keeps its SQLite locks: another process's close leaves the WAL of a live reader") {
  TempDir dir;
  const std::string path = dir.file("sweep.db");
  { Store(path).create_campaign(campaign("c1"), two_points()); }
  int ready[2], release[2];
  REQUIRE(::pipe(ready) == 0);
  REQUIRE(::pipe(release) == 0);
  const pid_t reader = ::fork();
  REQUIRE(reader >= 0);
  if (reader == 0) {  // the reader process: opens a store, reads once, holds it until released
    int code = 0;
    try {
      Store r(path);
      r.campaigns();
      char c = 'r';
      if (::write(ready[1], &c, 1) != 1 || ::read(release[0], &c, 1) != 1) code = 2;
      r.campaigns();
    } catch (...) {
      code = 1;
    }
    ::_exit(code);
  }
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  {
    Store w(path);
    w.create_campaign(campaign("c2"), two_points());
  }  // the last connection of this process closes: it may delete the WAL only if no other process reads
  CHECK(std::filesystem::exists(path + "-wal"));
  REQUIRE(::write(release[1], &c, 1) == 1);
  int status = 0;
  REQUIRE(::waitpid(reader, &status, 0) == reader);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("provenance counts: over every run's latest attempt, or only the runs a filter selects") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c1", 2), two_points());
  const auto runs = db.runs(id);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    REQUIRE(db.begin_attempt(runs[i].id, "/r/" + std::to_string(i), "t") == 1);
    AttemptResult r;
    r.state = RunState::succeeded;
    r.provenance = {{"nccl.version", i == 0 ? "2.21.5" : "2.28.9"}, {"gpus_requested", i < 3 ? "none" : "resources.gpus=1"}};
    if (i == 2) r.provenance.pop_back();  // a run that did not say
    db.finish_attempt(runs[i].id, 1, r);
  }
  CHECK(db.provenance_counts(id, {"nccl.version"}) ==
        std::vector<ProvenanceCount>{{"nccl.version", "2.28.9", 3}, {"nccl.version", "2.21.5", 1}});
  const ProvenanceFilter asked{"gpus_requested", "none"};
  CHECK(db.provenance_counts(id, {"nccl.version"}, asked) == std::vector<ProvenanceCount>{{"nccl.version", "2.28.9", 1}});
  CHECK(db.provenance_counts(id, {"cpu_model"}, asked).empty());
}
