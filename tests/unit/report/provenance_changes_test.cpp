// The provenance facts two campaigns differ in (report/provenance_changes.h), over a real SQLite file
// whose runs carry container provenance through the store's API, and their place in compare's text,
// JSON and JUnit.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <optional>

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
/// provenance `per_run(repetition)` gives; its record's system and git state as given.
void add_campaign_of(store::Store& db, const std::string& label, const std::string& system, const std::string& commit,
                     std::optional<bool> dirty, const std::function<store::KeyValues(int)>& per_run) {
  store::CampaignRecord c;
  c.label = label;
  c.experiment = "img";
  c.spec_text = "name: img\n";
  c.executor = "local";
  c.repetitions = 3;
  c.system = system;
  c.git_commit = commit;
  c.git_dirty = dirty;
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

/// The same, without a system or a git commit.
void add_campaign(store::Store& db, const std::string& label, const std::function<store::KeyValues(int)>& per_run) {
  add_campaign_of(db, label, "", "", std::nullopt, per_run);
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

TEST_CASE("provenance changes: compare's JSON (version 5) and JUnit carry them") {
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
  std::vector<std::string> labels;
  for (const auto& f : facts) labels.push_back(f.label);
  CHECK(labels == std::vector<std::string>{"system", "GPU", "GPU driver", "CUDA", "NCCL", "container image",
                                           "container runtime", "kernel", "modules", "workload commit", "nodes"});
  CHECK(facts[5].keys == std::vector<std::string>{"container.image", "container.image_id"});
  CHECK(provenance_fact_keys() ==
        std::vector<std::string>{"campaign.system", "gpu.model", "gpu.count", "gpu.driver", "gpu.cuda", "nccl.version",
                                 "container.image", "container.image_id", "container.runtime",
                                 "container.runtime_version", "kernel", "job.modules", "campaign.git_commit",
                                 "campaign.git_dirty", "slurm.node_list", "hostname"});
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

namespace {

store::KeyValues node(const std::string& gpu, const std::string& nccl, const std::string& host = "n1") {
  return {{"gpu.model", gpu}, {"gpu.count", "4"}, {"gpu.driver", "550.54"}, {"gpu.cuda", "12.4"}, {"nccl.version", nccl},
          {"kernel", "Linux 6.1"}, {"hostname", host}, {"job.modules", "gcc/12\ncuda/12.4"}};
}

const std::string kCommitA = "0123456789abcdef0123456789abcdef01234567";

}  // namespace

TEST_CASE("provenance changes: the GPU, NCCL, driver and kernel of the runs, each a fact of its own") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign_of(db, "a", "", "", std::nullopt, [](int) { return node("NVIDIA A100", "2.19.3"); });
  add_campaign_of(db, "same", "", "", std::nullopt, [](int) { return node("NVIDIA A100", "2.19.3"); });
  add_campaign_of(db, "nccl", "", "", std::nullopt, [](int) { return node("NVIDIA A100", "2.21.5"); });
  add_campaign_of(db, "h100", "", "", std::nullopt, [](int) {
    auto kv = node("NVIDIA H100 80GB HBM3", "2.19.3");
    kv[2].second = "560.28";
    kv[5].second = "Linux 6.8";
    return kv;
  });
  CHECK(compared(db, "a", "same").changed.empty());
  const auto nccl = compared(db, "a", "nccl");
  REQUIRE(nccl.changed.size() == 1);
  CHECK(change_text(nccl.changed[0]) == "NCCL 2.19.3 -> 2.21.5");
  CHECK_THAT(comparison_text(nccl), Catch::Contains("\nchanged: NCCL 2.19.3 -> 2.21.5\n"));
  const auto h100 = compared(db, "a", "h100");
  std::vector<std::string> texts;
  for (const auto& c : h100.changed) texts.push_back(change_text(c));
  CHECK(texts == std::vector<std::string>{"GPU NVIDIA A100 (4) -> NVIDIA H100 80GB HBM3 (4)", "GPU driver 550.54 -> 560.28",
                                          "kernel Linux 6.1 -> Linux 6.8"});
}

TEST_CASE("provenance changes: the system and the workload's commit come from the campaigns' records") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign_of(db, "ours", "lab", kCommitA, false, [](int) { return node("NVIDIA A100", "2.19.3"); });
  add_campaign_of(db, "theirs", "national", kCommitA, true, [](int) { return node("NVIDIA A100", "2.19.3"); });
  add_campaign_of(db, "ours2", "lab", kCommitA, std::nullopt, [](int) { return node("NVIDIA A100", "2.19.3"); });
  add_campaign_of(db, "other", "lab", "fedcba9876543210fedcba9876543210fedcba98", false,
                  [](int) { return node("NVIDIA A100", "2.19.3"); });
  const auto c = compared(db, "ours", "theirs");
  REQUIRE(c.changed.size() == 2);
  CHECK(change_text(c.changed[0]) == "system lab -> national");
  CHECK(change_text(c.changed[1]) == "workload commit 0123456789ab (clean) -> 0123456789ab (dirty)");
  // Whether the tree was dirty unknown: not a change.
  CHECK(compared(db, "ours", "ours2").changed.empty());
  const auto other = compared(db, "ours", "other");
  REQUIRE(other.changed.size() == 1);
  CHECK(change_text(other.changed[0]) == "workload commit 0123456789ab (clean) -> fedcba987654 (clean)");
  const auto values = campaign_fact_values(load_campaign(db, "theirs").campaign);
  CHECK(values == std::vector<store::AttemptValue>{{0, 0, "campaign.system", "national"},
                                                   {0, 0, "campaign.git_commit", kCommitA},
                                                   {0, 0, "campaign.git_dirty", "dirty"}});
  const auto json = nlohmann::json::parse(comparison_json(c));
  CHECK(json["changed"][0]["candidate"][0]["campaign.system"] == "national");
}

TEST_CASE("provenance changes: nodes are the Slurm node list else the host, modules read on one line") {
  TempDir dir;
  store::Store db(dir.file("sweep.db"));
  add_campaign_of(db, "local", "", "", std::nullopt, [](int) { return node("NVIDIA A100", "2.19.3", "box"); });
  add_campaign_of(db, "local2", "", "", std::nullopt, [](int) { return node("NVIDIA A100", "2.19.3", "box"); });
  add_campaign_of(db, "slurm", "", "", std::nullopt, [](int rep) {
    auto kv = node("NVIDIA A100", "2.19.3", "login1");
    kv.emplace_back("slurm.node_list", rep == 0 ? "gpu[01-02]" : "gpu03");
    kv[7].second = "gcc/12\ncuda/12.6\n";
    return kv;
  });
  // Two local campaigns on one host: no nodes line.
  CHECK(compared(db, "local", "local2").changed.empty());
  const auto c = compared(db, "local", "slurm");
  REQUIRE(c.changed.size() == 2);
  CHECK(change_text(c.changed[0]) == "modules gcc/12 cuda/12.4 -> gcc/12 cuda/12.6");
  CHECK(change_text(c.changed[1]) == "nodes box -> gpu03, gpu[01-02]");
  const auto json = nlohmann::json::parse(comparison_json(c));
  CHECK(json["changed"][1]["candidate"][0] == nlohmann::json::parse(R"({"slurm.node_list": "gpu03"})"));
}

TEST_CASE("provenance changes: a side of many values shows the first few and counts the rest") {
  std::vector<FactValue> many;
  for (int i = 0; i < 7; ++i) many.push_back({"v" + std::to_string(i)});
  CHECK(fact_values_text(many) == "v0, v1, v2, v3 and 3 more");
}
