#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include <fstream>

#include "store/schema.h"
#include "store/store.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;

TEST_CASE("a database of a newer schema version is refused with a clear message") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  { store::Store db(path); }
  {
    SQLite::Database raw(path, SQLite::OPEN_READWRITE);
    raw.exec("UPDATE schema_info SET version = 99");
  }
  try {
    store::Store db(path);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::database);
    CHECK_THAT(e.what(), Catch::Contains("schema version 99") && Catch::Contains("newer"));
  }
}

TEST_CASE("a database that is not sweep's, or not SQLite at all, is refused") {
  TempDir dir;
  const auto other = dir.file("other.db");
  {
    SQLite::Database raw(other, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE t (x)");
  }
  CHECK_THROWS_WITH(store::Store(other), Catch::Contains("not a sweep results database"));

  const auto garbage = dir.file("garbage.db");
  std::ofstream(garbage) << std::string(4096, 'x');
  CHECK_THROWS_AS(store::Store(garbage), Error);
}

TEST_CASE("the schema is created in WAL mode with the current version") {
  TempDir dir;
  const auto path = dir.file("sweep.db");
  { store::Store db(path); }
  SQLite::Database raw(path, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("PRAGMA journal_mode").getString() == "wal");
  CHECK(raw.execAndGet("SELECT version FROM schema_info").getInt() == store::kSchemaVersion);
}
