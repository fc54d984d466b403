// Readers while a campaign is ingested: four `sweep report` processes loop while `sweep collect` ingests
// a detached 80-run campaign on the development cluster. None may be refused ("database is locked"),
// and none may see a torn state: in every report.json each point's succeeded runs and its metric's
// sample count are the same number, which holds only if runs and metrics come from one snapshot.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <atomic>
#include <thread>

#include "slurm/slurm_harness.h"

using namespace slurmtest;

namespace {

constexpr int kReaders = 4;

std::string eighty() {
  std::string values;
  for (int i = 0; i < 80; ++i) values += (i ? ", " : "") + std::to_string(i);
  return "name: eighty\nexecutor: slurm\nmatrix: {n: [" + values + "]}\nresources: {time: 5}\n"
         "workload: {command: 'sleep 1; echo \"value: {{n}}\"'}\n"
         "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n";
}

/// What one reader saw over all its reports (checked by the test's thread: Catch is not thread-safe).
struct Seen {
  int reports = 0;
  std::string refused;  // the first failed report's output
  std::string torn;     // the first point whose counts disagreed
  int part_way = 0;     // reports taken while the campaign was part-way ingested
};

/// Checks one report.json; returns the campaign's succeeded runs.
int check_report(const std::string& path, Seen& seen) {
  const auto doc = nlohmann::json::parse(e2e::read_file(path));
  int succeeded = 0;
  for (const auto& point : doc.at("points")) {
    const int ok = point.at("succeeded").get<int>();
    const auto& metrics = point.at("metrics");
    const int n = metrics.contains("value") ? metrics.at("value").at("n").get<int>() : 0;
    if (ok != n && seen.torn.empty())
      seen.torn = point.at("point_id").get<std::string>() + ": " + std::to_string(ok) + " succeeded, n = " +
                  std::to_string(n);
    succeeded += ok;
  }
  return succeeded;
}

void read_until(const e2e::Sandbox& box, const std::string& label, int reader, const std::atomic<bool>& done,
                Seen& seen) {
  const std::string reports = box.path("reports-" + std::to_string(reader));
  while (!done) {
    const auto r = shell(std::string(SWEEP_BIN) + " report " + label + " --no-figures --results " +
                         box.path("results") + " --reports " + reports);
    ++seen.reports;
    if (r.exit_code != 0) {
      if (seen.refused.empty()) seen.refused = "exit " + std::to_string(r.exit_code) + ": " + r.out + r.err;
      continue;
    }
    const int succeeded = check_report(reports + "/" + label + "/report.json", seen);
    if (succeeded > 0 && succeeded < 80) ++seen.part_way;
  }
}

}  // namespace

TEST_CASE("four sweep report readers while sweep collect ingests: never locked, never torn", "[solo]") {
  slurm_conf();
  e2e::Sandbox box;
  const std::string L = unique_label(box, "r");
  box.write("eighty.yaml", eighty());
  const auto detached = box.sweep({"run", "eighty.yaml", "--label", L, "--detach"});
  INFO(detached.out << detached.err);
  REQUIRE(detached.exit_code == 0);

  std::atomic<bool> done{false};
  std::vector<Seen> seen(kReaders);
  std::vector<std::thread> readers;
  for (int i = 0; i < kReaders; ++i)
    readers.emplace_back([&, i] { read_until(box, L, i, done, seen[static_cast<std::size_t>(i)]); });
  // sweep collect is one pass (ingest what ended, submit more, exit): called until nothing is left
  e2e::Result c;
  int collects = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  do {
    c = box.sweep({"collect", L});
    ++collects;
    if (c.out.find(" 0 unfinished") != std::string::npos || c.exit_code != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  } while (std::chrono::steady_clock::now() < until);
  done = true;
  for (auto& t : readers) t.join();

  INFO(collects << " collects; the last: " << c.out << c.err);
  CHECK(c.exit_code == 0);
  INFO("states: " << query(box, "SELECT group_concat(state || '=' || n) FROM (SELECT state, count(*) n FROM runs GROUP BY state)"));
  CHECK(query(box, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == "80");
  int part_way = 0;
  for (int i = 0; i < kReaders; ++i) {
    const Seen& s = seen[static_cast<std::size_t>(i)];
    INFO("reader " << i << ": " << s.reports << " reports, " << s.part_way << " part-way; refused: " << s.refused
                   << "; torn: " << s.torn);
    CHECK(s.reports >= 3);
    CHECK(s.refused.empty());
    CHECK(s.torn.empty());
    part_way += s.part_way;
  }
  CHECK(part_way >= 4);  // the readers did overlap the ingestion
}
