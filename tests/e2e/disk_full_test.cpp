// A disk that fills up while a campaign writes. The test mounts a real 1 MiB tmpfs inside its sandbox
// (which needs root, as the test suite runs in CI) for the results directory, with the database on it or
// beside it, and runs a campaign whose 30 runs write 60 KB each: the disk is full long before the end.
// The contract: a clear error with exit code 6, a database that passes PRAGMA integrity_check and keeps
// every result recorded so far, and a resume that finishes the campaign once the disk has room.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "e2e/harness.h"

using namespace e2e;

namespace {

constexpr const char* kFull = R"(name: full
telemetry: false
matrix:
  n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
workload:
  command: |
    head -c 60000 /dev/zero | tr '\0' x
    echo
    echo "value: {{n}}"
metrics:
  - name: value
    better: higher
    regex: 'value: (?<value>\d+)'
)";

/// A tmpfs of `size` mounted at `dir` for the scope's lifetime.
class Tmpfs {
 public:
  Tmpfs(const std::string& dir, const std::string& size) : dir_(dir) {
    std::filesystem::create_directories(dir);
    // mode=0755: a tmpfs root is 1777 by default, and sweep refuses a results directory anyone can write.
    const auto r = shell("mount -t tmpfs -o size=" + size + ",mode=0755 sweep-full '" + dir + "' 2>&1");
    if (r.exit_code != 0) FAIL("this test mounts a tmpfs, which needs root (CI runs as root): " << r.out);
  }
  ~Tmpfs() { shell("umount -l '" + dir_ + "'"); }
  void resize(const std::string& size) const {
    REQUIRE(shell("mount -o remount,size=" + size + " '" + dir_ + "'").exit_code == 0);
  }

 private:
  std::string dir_;
};

/// run id -> (attempt, value) of every succeeded run.
std::map<long long, std::pair<int, double>> succeeded(SQLite::Database& db) {
  std::map<long long, std::pair<int, double>> out;
  SQLite::Statement q(db, "SELECT r.id, r.attempt, m.value FROM runs r JOIN metrics m ON m.run_id = r.id "
                          "AND m.attempt = r.attempt WHERE r.state = 'succeeded'");
  while (q.executeStep()) out[q.getColumn(0).getInt64()] = {q.getColumn(1).getInt(), q.getColumn(2).getDouble()};
  return out;
}

std::string integrity(SQLite::Database& db) {
  SQLite::Statement q(db, "PRAGMA integrity_check");
  return q.executeStep() ? q.getColumn(0).getString() : "";
}

/// Runs the campaign onto the full disk, then resumes it with room; `db_args` places the database.
void fill_then_resume(const Sandbox& box, const Tmpfs& disk, const std::vector<std::string>& db_args,
                      const std::string& db_path) {
  std::vector<std::string> run{"run", "full.yaml", "--label", "f"};
  run.insert(run.end(), db_args.begin(), db_args.end());
  const auto full = box.sweep(run);
  INFO(full.out << full.err);
  CHECK(full.exit_code == 6);
  CHECK_THAT(full.err, Catch::Contains("disk is full") || Catch::Contains("No space left on device"));

  std::map<long long, std::pair<int, double>> before;
  {
    SQLite::Database db(db_path, SQLite::OPEN_READONLY);
    CHECK(integrity(db) == "ok");
    before = succeeded(db);
    CHECK(scalar(db, "SELECT count(*) FROM runs") == 30);
    CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") < 30);
  }

  disk.resize("64m");
  std::vector<std::string> resume{"run", "--resume", "f"};
  resume.insert(resume.end(), db_args.begin(), db_args.end());
  const auto resumed = box.sweep(resume);
  INFO(resumed.out << resumed.err);
  CHECK(resumed.exit_code == 0);
  SQLite::Database db(db_path, SQLite::OPEN_READONLY);
  CHECK(integrity(db) == "ok");
  const auto after = succeeded(db);
  CHECK(after.size() == 30);
  CHECK(scalar(db, "SELECT sum(value) FROM metrics m JOIN runs r ON m.run_id = r.id AND m.attempt = r.attempt") == 465);
  for (const auto& [run_id, result] : before) {  // what was recorded on the full disk was kept, not rerun
    INFO("run " << run_id);
    REQUIRE(after.count(run_id) == 1);
    CHECK(after.at(run_id) == result);
  }
}

}  // namespace

TEST_CASE("a full disk under the database: exit 6, an intact database, and resume finishes") {
  Sandbox box;
  box.write("full.yaml", kFull);
  const Tmpfs disk(box.path("results"), "1m");
  fill_then_resume(box, disk, {}, box.path("results/sweep.db"));
}

TEST_CASE("a full disk under the run directories (database elsewhere): exit 6, then resume finishes") {
  Sandbox box;
  box.write("full.yaml", kFull);
  std::filesystem::create_directories(box.path("db"));
  const Tmpfs disk(box.path("results"), "1m");
  fill_then_resume(box, disk, {"--db", box.path("db/sweep.db")}, box.path("db/sweep.db"));
}
