// report::load_history over a real SQLite file, and the history's tables, change points and trend figures.
#include <catch2/catch.hpp>

#include <fmt/core.h>

#include "report/history.h"
#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::report;

namespace {

/// A campaign `label` of two points (parallelism dp and pp) with 2 succeeded runs each: samples_per_s
/// is `base` (+1 for the second run) at dp and twice that at pp; only dp reports busbw.
void add_night(store::Store& db, const std::string& label, double base, const std::string& system = "") {
  store::CampaignRecord c;
  c.label = label;
  c.system = system;
  c.experiment = "nightly";
  c.spec_text = "name: nightly\n";
  c.executor = "local";
  c.repetitions = 2;
  const std::vector<store::PointRecord> points{{"p-dp", 0, {{"parallelism", "dp", "string", false}}},
                                               {"p-pp", 1, {{"parallelism", "pp", "string", false}}}};
  const auto id = db.create_campaign(c, points);
  for (const auto& run : db.runs(id)) {
    const double v = (run.point_id == "p-dp" ? base : 2 * base) + run.repetition;
    store::AttemptResult ok;
    ok.state = store::RunState::succeeded;
    ok.exit_code = 0;
    ok.metrics = {{"samples_per_s", 0, v, "samples/s", "higher"}};
    if (run.point_id == "p-dp") ok.metrics.push_back({"busbw", 0, 3.0, "GB/s", "higher"});
    db.finish_attempt(run.id, db.begin_attempt(run.id, "/r", "t"), ok);
  }
}

}  // namespace

TEST_CASE("history: the nights a request selects, oldest first, with the night as a parameter") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_night(db, "nightly-2026-01-02", 20);
  add_night(db, "nightly-2026-01-01", 10);
  add_night(db, "nightly-20260103-101010", 99);  // a `sweep run` of the experiment, not a night
  add_night(db, "nightly-2026-01-03", 30);
  add_night(db, "other-2026-01-01", 50);

  HistoryRequest r{"nightly-", "[0-9]{4}-[0-9]{2}-[0-9]{2}", "", 30, {}};
  History h = load_history(db, r);
  CHECK(h.nights == std::vector<std::string>{"nightly-2026-01-01", "nightly-2026-01-02", "nightly-2026-01-03"});
  REQUIRE(h.results.size() == 6);
  CHECK(h.results[0].point->params[0].name == "night");
  CHECK(h.results[0].point->params[0].value == "2026-01-01");
  CHECK(h.results[0].point->params[1].value == "dp");
  CHECK(h.results[0].metrics.at("samples_per_s").summary.mean == Approx(10.5));
  CHECK(h.metrics == std::vector<std::string>{"busbw", "samples_per_s"});

  r.until = "nightly-2026-01-02";  // reporting an earlier night shows no later one
  r.nights = 1;                    // and only the latest so many
  CHECK(load_history(db, r).nights == std::vector<std::string>{"nightly-2026-01-02"});

  r = {"nightly-", "", "", 30, {"samples_per_s"}};
  h = load_history(db, r);
  CHECK(h.nights.size() == 4);  // without the pattern, the plain run counts too
  CHECK(h.metrics == std::vector<std::string>{"samples_per_s"});
  CHECK_FALSE(h.results[0].metrics.contains("busbw"));

  r.metrics = {"samples_per_sec"};
  CHECK_THROWS_WITH(load_history(db, r), Catch::Contains("unknown history metric \"samples_per_sec\""));
  CHECK(load_history(db, {"none-", "", "", 30, {"x"}}).nights.empty());
}

TEST_CASE("history: per metric one row per night, one column per point, and a trend figure") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_night(db, "nightly-2026-01-01", 10);
  add_night(db, "nightly-2026-01-02", 20);
  const History h = load_history(db, {"nightly-", "", "", 30, {}});

  const auto tables = history_tables(h);
  REQUIRE(tables.size() == 2);
  const Table& t = tables[1];
  CHECK(t.name == "history-samples_per_s");
  CHECK(t.title == "samples_per_s by night");
  CHECK(t.unit == "samples/s");
  CHECK(t.row_names == std::vector<std::string>{"night"});
  CHECK(t.row_values == std::vector<std::vector<std::string>>{{"2026-01-01"}, {"2026-01-02"}});
  CHECK(t.columns == std::vector<std::string>{"parallelism=dp", "parallelism=pp"});
  CHECK(t.cells[1][1].stats.summary.mean == Approx(40.5));
  // busbw only at dp: its table has that point alone, one column per metric.
  CHECK(tables[0].row_values.size() == 2);
  CHECK(tables[0].cells[0].size() == 1);

  const auto figures = trend_figures(h, "nightly-2026-01-02");
  REQUIRE(figures.size() == 2);
  CHECK(figures[1].name == "trend-samples_per_s");
  CHECK(figures[1].points == 4);
  CHECK_THAT(figures[1].script, Catch::Contains("set xtics ('2026-01-01' 0, '2026-01-02' 1)"));
  CHECK_THAT(figures[1].script, Catch::Contains("title 'dp'"));
  CHECK_THAT(figures[1].script, Catch::Contains("set ylabel 'samples_per_s (samples/s)'"));
}

namespace {

/// Twelve nights, 2026-01-01 to 2026-01-12, whose base wobbles by 1% with the night; from `shift` on
/// (a night number, 13 = never) the base is 20% higher.
History twelve_nights(store::Store& db, int shift) {
  for (int night = 1; night <= 12; ++night)
    add_night(db, fmt::format("nightly-2026-01-{:02}", night), (night < shift ? 10.0 : 12.0) + 0.1 * (night % 3));
  return load_history(db, {"nightly-", "", "", 30, {"samples_per_s"}});
}

}  // namespace

TEST_CASE("history: a shift planted at a night is a change point of every point it moves") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  const History h = twelve_nights(db, 7);
  const auto changes = history_change_points(h);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].metric == "samples_per_s");
  CHECK(changes[0].point == "parallelism=dp");
  CHECK(changes[1].point == "parallelism=pp");
  for (const auto& c : changes) {
    CHECK(c.night == "2026-01-07");
    CHECK(c.campaign == "nightly-2026-01-07");
    CHECK(c.change.index == 6);
    CHECK(c.change.relative > 0.15);
    CHECK(c.change.p < 0.05);
  }
  CHECK(changes[0].change.before == Approx(10.6));  // 10.5 + the wobble's mean, 0.1

  const Table t = change_point_table(changes);
  CHECK(t.name == "change-points");
  CHECK(t.row_names == std::vector<std::string>{"metric", "point", "first night", "before", "after", "change", "p"});
  REQUIRE(t.row_values.size() == 2);
  CHECK(t.row_values[0][2] == "2026-01-07");
  CHECK(t.row_values[0][5] == "+18.9%");  // 12.6 over 10.6
  CHECK(t.cells.size() == 2);

  const auto figures = trend_figures(h, "nightly-2026-01-12", changes);
  REQUIRE(figures.size() == 1);
  // Nights are ordinals on the axis: 2026-01-07 is at 6, one marker for both points.
  CHECK_THAT(figures[0].script, Catch::Contains("set arrow 1 from 6, graph 0 to 6, graph 1 nohead"));
  CHECK_THAT(figures[0].script, Catch::Contains("set label 1 '+18.9% parallelism=dp; +19.3% parallelism=pp' at 6, graph 0.04"));
  CHECK_THAT(figures[0].script, !Catch::Contains("set arrow 2"));
}

TEST_CASE("history: nights without a shift, or too few of them, have no change point") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  const History h = twelve_nights(db, 13);
  CHECK(history_change_points(h).empty());
  CHECK(change_point_table({}).row_values.empty());
  CHECK_THAT(trend_figures(h, "nightly-2026-01-12", {})[0].script, !Catch::Contains("set arrow"));

  TempDir short_dir;
  store::Store few(short_dir.file("sweep.db"));
  for (int night = 1; night <= 5; ++night) add_night(few, fmt::format("nightly-2026-01-0{}", night), night < 3 ? 10.0 : 20.0);
  CHECK(history_change_points(load_history(few, {"nightly-", "", "", 30, {}})).empty());
}

TEST_CASE("history: nights of several systems name each night's system in its row, one series per point") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_night(db, "nightly-2026-01-01", 10, "lab");
  add_night(db, "nightly-2026-01-02", 20, "lab");
  add_night(db, "nightly-2026-01-02@national", 30, "national");  // an imported night
  const History h = load_history(db, {"nightly-", "", "", 30, {"samples_per_s"}});
  CHECK(h.several_systems);
  const auto tables = history_tables(h);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].row_names == std::vector<std::string>{"night", "system"});
  CHECK(tables[0].row_values == std::vector<std::vector<std::string>>{
                                    {"2026-01-01", "lab"}, {"2026-01-02", "lab"}, {"2026-01-02@national", "national"}});
  CHECK(tables[0].columns == std::vector<std::string>{"parallelism=dp", "parallelism=pp"});  // not split by system
  // One system alone: no system row.
  TempDir one;
  store::Store single(one.file("sweep.db"));
  add_night(single, "nightly-2026-01-01", 10, "lab");
  add_night(single, "nightly-2026-01-02", 20, "lab");
  const History alone = load_history(single, {"nightly-", "", "", 30, {"samples_per_s"}});
  CHECK_FALSE(alone.several_systems);
  CHECK(history_tables(alone)[0].row_names == std::vector<std::string>{"night"});
}
