// store/campaign_edits.cpp: results replaced all or nothing, runs queued again, a campaign removed with
// every row of it, and each edit recorded; on a real SQLite file.
#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::store;

namespace {

CampaignRecord campaign(const std::string& label) {
  CampaignRecord c;
  c.label = label;
  c.experiment = "demo";
  c.spec_path = "demo.yaml";
  c.spec_text = "name: demo\n";
  c.spec_hash = "h0";
  c.executor = "local";
  c.repetitions = 1;
  c.started_at = "2026-11-26T00:00:00.000Z";
  c.run_root = "/tmp/runs-" + label;
  return c;
}

std::vector<PointRecord> points() {
  return {PointRecord{"p1", 0, {{"batch", "16", "int", false}}}, PointRecord{"p2", 1, {{"batch", "32", "int", false}}}};
}

/// Both runs of the campaign ended: p1 failed for a missing metric, p2 succeeded with one value.
void run_both(Store& db, std::int64_t id) {
  for (const auto& run : db.runs(id)) {
    const int attempt = db.begin_attempt(run.id, "/tmp/d", "t");
    AttemptResult r;
    r.state = run.point_id == "p1" ? RunState::failed : RunState::succeeded;
    r.failure_class = run.point_id == "p1" ? "missing_metric" : "";
    if (run.point_id == "p2") r.metrics.push_back({"t", 0, 2.0, "s", ""});
    r.provenance.emplace_back("matches.t", run.point_id == "p1" ? "0" : "1");
    db.finish_attempt(run.id, attempt, r);
  }
}

ChangeRecord change(std::int64_t id, const char* kind) { return ChangeRecord{0, id, "now", "me", "host", kind, "what", ""}; }

}  // namespace

TEST_CASE("replace_results swaps values, verdicts and the experiment at once and records the change") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c"), points());
  run_both(db, id);
  const auto runs = db.runs(id);
  std::vector<ReparsedRun> fresh;
  for (const auto& run : runs)
    fresh.push_back(ReparsedRun{run.id, run.attempt, true, RunState::succeeded, "", "", {{"t", 0, 5.0, "s", ""}},
                                {{"matches.t", "1"}}});
  auto c = change(id, "reparse");
  c.rules_hash = "h1";
  db.replace_results(id, fresh, c, "name: demo # fixed\n", "h1");
  for (const auto& run : db.runs(id)) CHECK(run.state == RunState::succeeded);
  CHECK(db.metrics(id).size() == 2);
  CHECK(db.metrics(id)[0].metric.value == 5.0);
  CHECK(db.find_campaign("c")->spec_hash == "h1");
  REQUIRE(db.changes(id).size() == 1);
  CHECK(db.changes(id)[0].rules_hash == "h1");
  CHECK(db.attempts(runs[0].id)[0].state == RunState::succeeded);

  // A run whose attempt is no longer its latest fails the whole replacement: nothing changes.
  fresh[1].attempt = 7;
  fresh[0].metrics[0].value = 9.0;
  CHECK_THROWS_AS(db.replace_results(id, fresh, change(id, "reparse")), Error);
  CHECK(db.metrics(id)[0].metric.value == 5.0);
  CHECK(db.changes(id).size() == 1);
}

TEST_CASE("requeue_runs makes runs pending for a new attempt, and refuses another campaign's run") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("c"), points());
  const auto other = db.create_campaign(campaign("d"), points());
  run_both(db, id);
  const auto runs = db.runs(id);
  CHECK_THROWS_AS(db.requeue_runs(id, {runs[0].id, db.runs(other)[0].id}, change(id, "rerun")), Error);
  CHECK(db.runs(id)[0].state == RunState::failed);  // all or nothing
  db.requeue_runs(id, {runs[0].id}, change(id, "rerun"));
  CHECK(db.runs(id)[0].state == RunState::pending);
  CHECK(db.begin_attempt(runs[0].id, "/tmp/e", "t") == 2);
  CHECK(db.changes(id).size() == 1);
  CHECK(db.changes(other).empty());
}

TEST_CASE("remove_campaign deletes every row of the campaign and its view, and nothing of another") {
  TempDir dir;
  Store db(dir.file("sweep.db"));
  const auto id = db.create_campaign(campaign("gone"), points());
  const auto kept = db.create_campaign(campaign("kept"), points());
  run_both(db, id);
  run_both(db, kept);
  db.set_baseline("b", id, "t");
  db.record_change(change(id, "extend"));
  db.remove_campaign(id);
  CHECK_FALSE(db.find_campaign("gone"));
  CHECK(db.baselines().empty());
  SQLite::Database raw(dir.file("sweep.db"));
  for (const char* table : {"runs", "attempts", "metrics", "run_provenance", "points", "point_params"}) {
    INFO(table);
    CHECK(raw.execAndGet(std::string("SELECT count(*) FROM ") + table).getInt() > 0);
  }
  CHECK(raw.execAndGet("SELECT count(*) FROM runs").getInt() == 2);
  CHECK(raw.execAndGet("SELECT count(*) FROM attempts").getInt() == 2);
  CHECK(raw.execAndGet("SELECT count(*) FROM metrics").getInt() == 1);
  CHECK(raw.execAndGet("SELECT count(*) FROM campaign_changes").getInt() == 0);
  CHECK(raw.execAndGet("SELECT count(*) FROM sqlite_master WHERE name = 'values:gone'").getInt() == 0);
  CHECK(raw.execAndGet("SELECT count(*) FROM sqlite_master WHERE name = 'values:kept'").getInt() == 1);
}
