// The default database path: one definition for the CLI, the drivers and the next-step hints.
#include <catch2/catch.hpp>

#include "store/database_path.h"

using namespace sweep::store;

TEST_CASE("database path: --db wins, else <results>/sweep.db") {
  CHECK(database_path("results") == "results/sweep.db");
  CHECK(database_path("/scratch/lab/results") == "/scratch/lab/results/sweep.db");
  CHECK(database_path("results", "/var/tmp/me/sweep.db") == "/var/tmp/me/sweep.db");
  CHECK(database_path(kDefaultResultsDir, "") == "results/sweep.db");
}

TEST_CASE("database path: only results/sweep.db is the default one") {
  CHECK(is_default_database("results/sweep.db"));
  CHECK_FALSE(is_default_database("/scratch/lab/results/sweep.db"));
  CHECK_FALSE(is_default_database("results/other.db"));
  CHECK_FALSE(is_default_database(""));
}
