// The provenance facts two campaigns differ in (report/provenance_changes.h), over a real SQLite file
// whose runs carry container provenance through the store's API, and their place in compare's text,
// JSON and JUnit.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report/campaign_data.h"
#include "report/comparison_view.h"
#include "report/gate_verdict.h"
#include "report/provenance_changes.h"
#include "store/store.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::report;

namespace {

const std::string kIdA = "sha256:12ab34cd56ef" + std::string(52, '0');
const std::string kIdB = "sha256:34cd56ef7890" + std::string(52, '1');

/// A campaign `label` of one point with 3 runs, each succeeded with speed 10, 11, 12 and the
/// provenance `per_run(repetition)` gives.
void add_campaign(store::Store& db, const std::string& label, const std::function<store::KeyValues(int)>& per_run) {
  store::CampaignRecord c;
  c.label = label;
  c.experiment = "img";
  c.spec_text = "name: img\n";
  c.executor = "local";
  c.repetitions = 3;
  const auto id = db.create_campaign(c, {{"p", 0, {{"n", "1", "int", false}}}});
  for (const auto& run : db.runs(id)) {
    store::AttemptResult ok;
    ok.state = store::RunState::succeeded;
    ok.exit_code = 0;
    ok.metrics = {{"speed", 0, 10.0 + run.repetition, "1/s", "higher"}};
    ok.provenance = per_run(run.repetition);
    db.finish_attempt(run.id, db.begin_attempt(run.id, "/r", "t"), ok);
  }
}

store::KeyValues container(const std::string& image, const std::string& id, const std::string& version = "0.31") {
  return {{"container.runtime", "charliecloud"}, {"container.runtime_version", version}, {"container.image", image},
          {"container.image_id", id}, {"container.image_kind", "directory"}};
}

CampaignComparison compared(const store::Store& db, const std::string& a, const std::string& b) {
  return compare_campaigns(load_campaign(db, a), load_campaign(db, b), {}, stats::CompareOptions{});
}

}  // namespace

TEST_CASE("provenance changes: another image between two campaigns is named, with its ids cut short") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "a", [](int) { return container("/img/a", kIdA); });
  add_campaign(db, "b", [](int) { return container("/img/b", kIdB); });
  const CampaignComparison c = compared(db, "a", "b");
  REQUIRE(c.changed.size() == 1);
  CHECK(c.changed[0].label == "container image");
  CHECK(c.changed[0].baseline == std::vector<FactValue>{{"/img/a", kIdA}});
  CHECK(change_text(c.changed[0]) == "container image /img/a (sha256:12ab34cd56ef\u2026) -> /img/b (sha256:34cd56ef7890\u2026)");
  CHECK_THAT(comparison_text(c), Catch::Contains("\nchanged: container image /img/a (sha256:12ab34cd56ef\u2026) -> /img/b "
                                                 "(sha256:34cd56ef7890\u2026)\n"));
  CHECK(attention_rows(c).back() == "changed: " + change_text(c.changed[0]));
  // The same campaigns against themselves: nothing changed.
  CHECK(compared(db, "a", "a").changed.empty());
}

TEST_CASE("provenance changes: the same path with another id, and another runtime version, are changes") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "a", [](int) { return container("/img/a", kIdA); });
  add_campaign(db, "rebuilt", [](int) { return container("/img/a", kIdB, "0.32"); });
  const CampaignComparison c = compared(db, "a", "rebuilt");
  REQUIRE(c.changed.size() == 2);
  CHECK(change_text(c.changed[0]) == "container image /img/a (sha256:12ab34cd56ef\u2026) -> /img/a (sha256:34cd56ef7890\u2026)");
  CHECK(change_text(c.changed[1]) == "container runtime charliecloud (0.31) -> charliecloud (0.32)");
}

TEST_CASE("provenance changes: a side without a container reads none, a mixed side lists its values") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "bare", [](int) { return store::KeyValues{{"cpu_model", "x"}}; });
  add_campaign(db, "mixed", [](int rep) { return container(rep == 0 ? "/img/b" : "/img/a", rep == 0 ? kIdB : kIdA); });
  const CampaignComparison c = compared(db, "bare", "mixed");
  REQUIRE(c.changed.size() == 2);
  CHECK(change_text(c.changed[0]) ==
        "container image none -> /img/a (sha256:12ab34cd56ef\u2026), /img/b (sha256:34cd56ef7890\u2026)");
  CHECK(change_text(c.changed[1]) == "container runtime none -> charliecloud (0.31)");
  // Two campaigns without any container: no change, no line.
  add_campaign(db, "bare2", [](int) { return store::KeyValues{}; });
  const CampaignComparison none = compared(db, "bare", "bare2");
  CHECK(none.changed.empty());
  CHECK_THAT(comparison_text(none), !Catch::Contains("changed:"));
}

TEST_CASE("provenance changes: a pulled reference without an id is shown by the reference alone") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "a", [](int) { return container("nvcr.io#nvidia/pytorch:24.01-py3", ""); });
  add_campaign(db, "b", [](int) { return container("nvcr.io#nvidia/pytorch:24.02-py3", ""); });
  const auto c = compared(db, "a", "b");
  REQUIRE(c.changed.size() == 1);
  CHECK(change_text(c.changed[0]) == "container image nvcr.io#nvidia/pytorch:24.01-py3 -> nvcr.io#nvidia/pytorch:24.02-py3");
}

TEST_CASE("provenance changes: compare's JSON (version 4) and JUnit carry them") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "a", [](int) { return container("/img/a", kIdA); });
  add_campaign(db, "b", [](int) { return container("/img/b\"<&", kIdB); });
  const CampaignComparison c = compared(db, "a", "b");
  const auto json = nlohmann::json::parse(comparison_json(c));
  CHECK(json["version"] == 5);
  REQUIRE(json["changed"].size() == 1);
  const auto& change = json["changed"][0];
  CHECK(change["fact"] == "container image");
  CHECK(change["keys"] == nlohmann::json::array({"container.image", "container.image_id"}));
  CHECK(change["baseline"] == nlohmann::json::parse(R"([{"container.image": "/img/a", "container.image_id": ")" + kIdA + "\"}]"));
  CHECK(change["candidate"][0]["container.image"] == "/img/b\"<&");
  CHECK(change["text"] == change_text(c.changed[0]));
  CHECK_THAT(comparison_junit(c), Catch::Contains("<property name=\"changed\" value=\"container image /img/a (sha256:12ab34cd56ef\u2026) "
                                                  "-&gt; /img/b&quot;&lt;&amp; (sha256:34cd56ef7890\u2026)\"/>"));
}

TEST_CASE("provenance changes: every fact reads its own keys, one row each") {
  const auto& facts = provenance_facts();
  REQUIRE(facts.size() == 2);
  CHECK(facts[0].keys == std::vector<std::string>{"container.image", "container.image_id"});
  CHECK(provenance_fact_keys() ==
        std::vector<std::string>{"container.image", "container.image_id", "container.runtime", "container.runtime_version"});
  CHECK(fact_values_text({}) == "none");
  CHECK(fact_values_text({{"", "sha256:abc"}}) == "none (sha256:abc)");
}

TEST_CASE("provenance changes: a run whose image id is unknown is not another image, and is noted only beside one") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign(db, "a", [](int) { return container("/img", kIdA); });
  add_campaign(db, "unknown", [](int) { return container("/img", ""); });  // sweep-image-id failed
  add_campaign(db, "mixed", [](int rep) { return container("/img", rep == 0 ? "" : kIdA); });
  add_campaign(db, "rebuilt", [](int rep) { return container("/img", rep == 0 ? "" : kIdB); });
  add_campaign(db, "other", [](int) { return container("/img2", ""); });
  // The same image text, its id known on one side only: nothing changed, either way round.
  CHECK(compared(db, "a", "unknown").changed.empty());
  CHECK(compared(db, "unknown", "a").changed.empty());
  CHECK_THAT(comparison_text(compared(db, "a", "unknown")), !Catch::Contains("changed:"));
  CHECK(compared(db, "a", "mixed").changed.empty());
  // Another id beside the unknown one is a change; the unknown run is noted where only its id differs.
  const auto rebuilt = compared(db, "a", "rebuilt");
  REQUIRE(rebuilt.changed.size() == 1);
  CHECK(change_text(rebuilt.changed[0]) ==
        "container image /img (sha256:12ab34cd56ef\u2026) -> /img (id unknown), /img (sha256:34cd56ef7890\u2026)");
  // Another image text: a change, the unknown id not noted (the text differs).
  const auto other = compared(db, "a", "other");
  REQUIRE(other.changed.size() == 1);
  CHECK(change_text(other.changed[0]) == "container image /img (sha256:12ab34cd56ef\u2026) -> /img2");
}
