// The local executor on a workstation: one run at a time by default, each concurrent run its own GPUs
// (resources.gpus, from the CUDA_VISIBLE_DEVICES sweep was started with), the runs' start order
// (`order:`), read back from the database's start times. The machine running these tests has no GPU:
// the GPU bookkeeping is checked through CUDA_VISIBLE_DEVICES, as a user restricting sweep would.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Sets an environment variable for the sweep processes a test starts, and restores it after.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~EnvGuard() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

/// "n<rep>" in the order the attempts started: "1:0 2:0 3:0 1:1 ..." (n is the point's parameter).
std::string start_order(SQLite::Database& db, const std::string& label) {
  SQLite::Statement q(db, "SELECT pp.value, r.repetition FROM attempts a JOIN runs r ON r.id = a.run_id "
                          "JOIN campaigns c ON c.id = r.campaign_id "
                          "JOIN point_params pp ON pp.campaign_id = r.campaign_id AND pp.point_id = r.point_id AND pp.name = 'n' "
                          "WHERE c.label = ? ORDER BY a.started_at, a.rowid");
  q.bind(1, label);
  std::string out;
  while (q.executeStep()) out += (out.empty() ? "" : " ") + q.getColumn(0).getString() + ":" + q.getColumn(1).getString();
  return out;
}

/// The most lines "<ns> +1" / "<ns> -1" in a ledger add up to at once: the runs that overlapped.
int most_at_once(const std::string& ledger) {
  std::vector<std::pair<long long, int>> events;
  std::istringstream in(read_file(ledger));
  long long t = 0;
  int d = 0;
  while (in >> t >> d) events.emplace_back(t, d);
  std::sort(events.begin(), events.end());  // an end before a start at the same nanosecond
  int now = 0, most = 0;
  for (const auto& [at, delta] : events) most = std::max(most, now += delta);
  return most;
}

const char* kOrder = R"(name: order
matrix:
  n: [1, 2, 3]
repetitions: 2
workload:
  command: sleep 0.02
)";

}  // namespace

TEST_CASE("local order: interleaved by default, grouped and seeded random on request, from the start times") {
  Sandbox box;
  box.write("o.yaml", kOrder);
  REQUIRE(box.sweep({"run", "o.yaml", "--label", "i"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "o.yaml", "--label", "g", "--order", "grouped"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "o.yaml", "--label", "r1", "--set", "order={kind: random, seed: 42}"}).exit_code == 0);
  REQUIRE(box.sweep({"run", "o.yaml", "--label", "r2", "--set", "order={kind: random, seed: 42}"}).exit_code == 0);
  auto db = box.db();
  CHECK(start_order(db, "i") == "1:0 2:0 3:0 1:1 2:1 3:1");
  CHECK(start_order(db, "g") == "1:0 1:1 2:0 2:1 3:0 3:1");
  // The seed decides the order (runner/run_order_test.cpp has the same permutation): the same in both.
  CHECK(start_order(db, "r1") == "3:0 2:1 1:0 2:0 3:1 1:1");
  CHECK(start_order(db, "r2") == start_order(db, "r1"));
  const auto bad = box.sweep({"run", "o.yaml", "--label", "b", "--set", "order=sideways"});
  CHECK(bad.exit_code == 3);
  CHECK_THAT(bad.err, Catch::Contains("unknown order \"sideways\" (available: interleaved, grouped, random)"));
}

TEST_CASE("local jobs: one run at a time unless --jobs says otherwise") {
  Sandbox box;
  const std::string ledger = box.path("ledger");
  box.write("s.yaml", "name: s\nmatrix:\n  n: [1, 2, 3, 4]\nworkload:\n  command: |\n    echo \"$(date +%s%N) 1\" >> " +
                          ledger + "\n    sleep 0.3\n    echo \"$(date +%s%N) -1\" >> " + ledger + "\n");
  REQUIRE(box.sweep({"run", "s.yaml", "--label", "one"}).exit_code == 0);
  CHECK(most_at_once(ledger) == 1);
  std::filesystem::remove(ledger);
  REQUIRE(box.sweep({"run", "s.yaml", "--label", "four", "--jobs", "4"}).exit_code == 0);
  CHECK(most_at_once(ledger) > 1);
  CHECK_THAT(box.sweep({"run", "--help"}).out, Catch::Contains("default 1"));
}

TEST_CASE("local gpus: each concurrent run gets its own GPUs from CUDA_VISIBLE_DEVICES, recorded in provenance") {
  Sandbox box;
  const std::string ledger = box.path("ledger"), held = box.path("held"), clash = box.path("clash");
  std::filesystem::create_directories(held);
  // Each run holds a directory per GPU it was given while it runs: a GPU given twice at once fails mkdir.
  box.write("g.yaml", "name: g\nmatrix:\n  n: [1, 2, 3, 4]\nrepetitions: 2\nresources:\n  gpus: 2\nworkload:\n"
                      "  command: |\n"
                      "    echo \"cvd=$CUDA_VISIBLE_DEVICES\"\n"
                      "    for g in $(echo \"$CUDA_VISIBLE_DEVICES\" | tr , ' '); do mkdir " + held + "/$g || echo $g >> " + clash + "; done\n"
                      "    echo \"$(date +%s%N) 1\" >> " + ledger + "\n"
                      "    sleep 0.3\n"
                      "    echo \"$(date +%s%N) -1\" >> " + ledger + "\n"
                      "    for g in $(echo \"$CUDA_VISIBLE_DEVICES\" | tr , ' '); do rmdir " + held + "/$g; done\n");
  {
    const EnvGuard cvd("CUDA_VISIBLE_DEVICES", "0,1,2,3");
    const auto run = box.sweep({"run", "g.yaml", "--label", "g", "--jobs", "4"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
  }
  CHECK(read_file(clash).empty());
  CHECK(most_at_once(ledger) == 2);  // four job slots, but GPUs for two runs
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'local.cuda_visible_devices'") == 8);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'local.cuda_visible_devices' "
                   "AND value NOT IN ('0,1', '2,3')") == 0);
  SQLite::Statement q(db, "SELECT run_dir, (SELECT value FROM run_provenance p WHERE p.run_id = a.run_id AND p.attempt = "
                          "a.attempt AND key = 'local.cuda_visible_devices') FROM attempts a");
  int checked = 0;
  while (q.executeStep()) {
    CHECK(read_file(q.getColumn(0).getString() + "/stdout") == "cvd=" + q.getColumn(1).getString() + "\n");
    ++checked;
  }
  CHECK(checked == 8);
}

TEST_CASE("local gpus: more GPUs per run than there are is refused before anything runs") {
  Sandbox box;
  box.write("g.yaml", "name: g\nmatrix:\n  n: [1, 2]\nresources:\n  gpus: \"{{n}}\"\nworkload:\n  command: touch " +
                          box.path("ran") + "\n");
  const EnvGuard cvd("CUDA_VISIBLE_DEVICES", "GPU-aaaa");
  const auto run = box.sweep({"run", "g.yaml", "--label", "g"});
  CHECK(run.exit_code == 3);
  CHECK_THAT(run.err, Catch::Contains("g.yaml:5:10: resources.gpus asks for 2 GPUs per run at the point n=2, but this "
                                      "machine has 1 to give (CUDA_VISIBLE_DEVICES=\"GPU-aaaa\")"));
  CHECK_FALSE(std::filesystem::exists(box.path("ran")));
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
  const EnvGuard none("CUDA_VISIBLE_DEVICES", "");
  CHECK_THAT(box.sweep({"run", "g.yaml", "--label", "g"}).err, Catch::Contains("has 0 to give"));
}
