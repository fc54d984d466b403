// Network counters per run on the local executor: nic_volume and nic_throughput in the database, a
// workload's own TCP traffic over lo counted, and nothing sampled without `network` or with
// `network: {counters: false}`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <SQLiteCpp/Statement.h>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Sends `bytes` bytes over a TCP connection to a listener on 127.0.0.1 and receives them, in one
/// python3 process; prints the bytes received.
std::string tcp_workload(long bytes) {
  return "python3 -c '\n"
         "import socket, threading\n"
         "N = " + std::to_string(bytes) + "\n"
         "l = socket.socket(); l.bind((\"127.0.0.1\", 0)); l.listen(1)\n"
         "c = socket.create_connection(l.getsockname()); s, _ = l.accept()\n"
         "got = [0]\n"
         "def rd():\n"
         "    while got[0] < N:\n"
         "        b = s.recv(1 << 16)\n"
         "        if not b: break\n"
         "        got[0] += len(b)\n"
         "t = threading.Thread(target=rd); t.start(); c.sendall(b\"x\" * N); t.join(); print(\"received\", got[0])'\n";
}

double metric(SQLite::Database& db, const std::string& name, std::string* unit = nullptr) {
  SQLite::Statement q(db, "SELECT value, unit FROM metrics WHERE name = ?");
  q.bind(1, name);
  REQUIRE(q.executeStep());
  if (unit) *unit = q.getColumn(1).getString();
  return q.getColumn(0).getDouble();
}

std::string provenance(SQLite::Database& db, const std::string& key) {
  SQLite::Statement q(db, "SELECT value FROM run_provenance WHERE key = ?");
  q.bind(1, key);
  REQUIRE(q.executeStep());
  return q.getColumn(0).getString();
}

}  // namespace

TEST_CASE("a run's TCP traffic over lo is in its nic_volume, and nic_throughput is volume over the span") {
  Sandbox box;
  constexpr long kBytes = 8'000'000;
  const std::string spec = "name: nic\nmatrix:\n  n: [1]\nnetwork:\n  interfaces: [lo]\nworkload:\n  command: |\n" +
                           [&] {
                             std::string indented;
                             std::string w = tcp_workload(kBytes);
                             for (std::size_t i = 0, j; i < w.size(); i = j + 1) {
                               j = w.find('\n', i);
                               indented += "    " + w.substr(i, j - i) + "\n";
                             }
                             return indented;
                           }();
  const auto run = box.sweep({"run", box.write("nic.yaml", spec), "--label", "nic"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto db = box.db();
  std::string volume_unit, rate_unit;
  const double volume = metric(db, "nic_volume", &volume_unit);
  const double rate = metric(db, "nic_throughput", &rate_unit);
  CHECK(volume_unit == "B");
  CHECK(rate_unit == "b/s");
  CHECK(volume >= kBytes);
  const double span = std::stod(provenance(db, "nic_span_s"));
  CHECK(span > 0);
  CHECK(rate == Approx(volume * 8 / span).epsilon(1e-3));
  CHECK(std::stod(provenance(db, "nic_sampled_span_s")) == Approx(span));  // one node: the same span
}

TEST_CASE("a local run with an empty network key has network metrics, and none without it or with the counters off") {
  Sandbox box;
  const auto on = box.sweep({"run", box.write("on.yaml", "name: on\nmatrix:\n  n: [1]\nnetwork: {}\nworkload:\n  command: \"true\"\n"),
                             "--label", "on"});
  INFO(on.out << on.err);
  REQUIRE(on.exit_code == 0);
  {
    auto db = box.db();
    CHECK(metric(db, "nic_volume") >= 0);
    CHECK(metric(db, "nic_throughput") >= 0);
    CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'ingest_warnings'") == 0);
  }
  for (const std::string& off : {std::string("network: {counters: false}\n"), std::string()}) {
    const std::string label = off.empty() ? "none" : "off";
    const auto run = box.sweep({"run", box.write(label + ".yaml", "name: " + label + "\nmatrix:\n  n: [1]\n" + off +
                                                                      "workload:\n  command: \"true\"\n"),
                                "--label", label});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto db = box.db();
    CHECK(scalar(db, "SELECT count(*) FROM metrics m JOIN runs r ON r.id = m.run_id JOIN campaigns c ON c.id = r.campaign_id "
                     "WHERE c.label = '" + label + "' AND m.name LIKE 'nic_%'") == 0);
    SQLite::Statement dir(db, "SELECT r.run_dir FROM runs r JOIN campaigns c ON c.id = r.campaign_id WHERE c.label = '" + label + "'");
    REQUIRE(dir.executeStep());
    for (const auto& e : std::filesystem::directory_iterator(dir.getColumn(0).getString()))
      CHECK(e.path().filename().string().rfind("nic.", 0) != 0);
  }
}

TEST_CASE("with the counters off, ingest never reads a run's nic.* files, a workload's own are left alone") {
  // Ingest once listed every run directory for snapshots whether or not the experiment sampled any: a
  // workload that writes files named nic.start.* and nic.end.* got network metrics or warnings from them.
  Sandbox box;
  const std::string workload = "workload:\n  command: \"printf 'not a snapshot' > $SWEEP_RUN_DIR/nic.start.n1; "
                               "printf 'not a snapshot' > $SWEEP_RUN_DIR/nic.end.n1\"\n";
  for (const std::string& off : {std::string("network: {counters: false}\n"), std::string()}) {
    const std::string label = off.empty() ? "none" : "off";
    const auto run = box.sweep({"run", box.write(label + ".yaml", "name: " + label + "\nmatrix:\n  n: [1]\n" + off + workload),
                                "--label", label});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto db = box.db();
    const std::string campaign = "(SELECT id FROM campaigns WHERE label = '" + label + "')";
    CHECK(scalar(db, "SELECT count(*) FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.campaign_id = " + campaign +
                     " AND m.name LIKE 'nic_%'") == 0);
    CHECK(scalar(db, "SELECT count(*) FROM run_provenance p JOIN runs r ON r.id = p.run_id WHERE r.campaign_id = " +
                     campaign + " AND p.key = 'ingest_warnings'") == 0);
  }
}
