// A results database on a filesystem where SQLite's WAL mode cannot be trusted. This machine's kernel
// has no NFS, so the test mounts a real FUSE filesystem (bindfs, root as in CI) over a directory of its
// sandbox: FUSE is in the same table as NFS, Lustre and GPFS (store/filesystem.h), which the unit test
// checks by magic number.
#include <catch2/catch.hpp>

#include <SQLiteCpp/SQLiteCpp.h>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// `source` mounted again at `dir` through FUSE (bindfs) for the scope's lifetime.
class FuseMount {
 public:
  FuseMount(const std::string& source, const std::string& dir) : dir_(dir) {
    std::filesystem::create_directories(source);
    std::filesystem::create_directories(dir);
    const auto r = shell("bindfs '" + source + "' '" + dir + "' 2>&1");
    if (r.exit_code != 0) FAIL("this test mounts a FUSE filesystem with bindfs, as root (CI runs as root): " << r.out);
  }
  ~FuseMount() { shell("fusermount -u '" + dir_ + "' || umount -l '" + dir_ + "'"); }

 private:
  std::string dir_;
};

}  // namespace

TEST_CASE("a database on a networked filesystem (FUSE) uses a rollback journal, says so, and the campaign completes") {
  Sandbox box;
  FuseMount mount(box.path("backing"), box.path("shared"));
  REQUIRE(shell("stat -f -c %T '" + box.path("shared") + "'").out == "fuseblk\n");
  box.write("e.yaml", "name: e\ntelemetry: false\nmatrix: {n: [1, 2, 3]}\nworkload: {command: 'echo \"value: {{n}}\"'}\n"
                      "metrics: [{name: value, better: higher, regex: 'value: (?<value>\\d+)'}]\n");
  const std::string db = box.path("shared/sweep.db");
  const auto r = box.sweep({"run", "e.yaml", "--label", "nfsish", "--db", db});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("the results database " + db + " is on fuse, where SQLite's WAL mode does not work"));
  CHECK_THAT(r.err, Catch::Contains("put --db on a local disk"));
  CHECK(!std::filesystem::exists(db + "-wal"));
  SQLite::Database check(db, SQLite::OPEN_READONLY);
  CHECK(check.execAndGet("PRAGMA journal_mode").getString() == "delete");
  CHECK(check.execAndGet("SELECT sum(value) FROM metrics").getDouble() == 6.0);
  // a report reads it there too
  const auto rep = box.sweep({"report", "nfsish", "--db", db});
  INFO(rep.err);
  CHECK(rep.exit_code == 0);

  // the same campaign with its database on local disk keeps WAL and says nothing
  const auto local = box.sweep({"run", "e.yaml", "--label", "local"});
  CHECK(local.exit_code == 0);
  CHECK(local.err.find("WAL mode") == std::string::npos);
}
