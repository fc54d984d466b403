#include "telemetry/proc_stat.h"

#include <catch2/catch.hpp>

#include <string>

using namespace sweep::telemetry;

namespace {
// A real /proc/<pid>/stat line (Linux 6.1), its comm made hostile: spaces and ") " inside.
const char* kStat =
    "4242 (evil) 1 2 (x) S 4200 4242 4200 34816 4242 4194304 1197 0 0 0 250 37 12 3 20 0 1 0 987654 "
    "10592256 1181 18446744073709551615 94 95 96 0 0 0 65536 3686404 1266761467 0 0 0 17 1 0 0 0 0 0\n";
}  // namespace

TEST_CASE("telemetry proc_stat: fields after a comm with spaces and parentheses") {
  const auto st = parse_proc_stat(kStat);
  REQUIRE(st);
  CHECK(st->pid == 4242);
  CHECK(st->comm == "evil) 1 2 (x");
  CHECK(st->state == 'S');
  CHECK(st->ppid == 4200);
  CHECK(st->utime == 250);
  CHECK(st->stime == 37);
  CHECK(st->cutime == 12);
  CHECK(st->cstime == 3);
  CHECK(st->starttime == 987654);
  std::string negative = kStat;  // proc(5) prints cutime signed: one that is no count reads as 0
  negative.replace(negative.find(" 12 3 "), 6, " -1 3 ");
  const auto odd = parse_proc_stat(negative);
  REQUIRE(odd);
  CHECK(odd->cutime == 0);
  CHECK(odd->cstime == 3);
}

TEST_CASE("telemetry proc_stat: what is not a stat line") {
  CHECK_FALSE(parse_proc_stat(""));
  CHECK_FALSE(parse_proc_stat("(bash) S 1 2"));
  CHECK_FALSE(parse_proc_stat("12 (bash) S 1 2 3"));
  CHECK_FALSE(parse_proc_stat("x1 (bash) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21"));
}

TEST_CASE("telemetry proc_stat: VmRSS of a status file, tabs and all") {
  CHECK(parse_vm_rss_kib("Name:\tbash\nVmPeak:\t   9000 kB\nVmRSS:\t    5432 kB\nThreads:\t1\n") == 5432u);
  CHECK_FALSE(parse_vm_rss_kib("Name:\tkthreadd\nThreads:\t1\n"));
  CHECK_FALSE(parse_vm_rss_kib("VmRSS:\t lots kB\n"));
  CHECK(parse_vm_hwm_kib("Name:\tbash\nVmPeak:\t   9000 kB\nVmHWM:\t    7000 kB\nVmRSS:\t    5432 kB\n") == 7000u);
  CHECK_FALSE(parse_vm_hwm_kib("Name:\tkthreadd\nThreads:\t1\n"));
}

TEST_CASE("telemetry proc_stat: the marker is one whole environment entry") {
  using namespace std::string_literals;
  const std::string env_block = "PATH=/bin\0SWEEP_RUN_ID=17\0HOME=/root\0"s;
  CHECK(environ_has(env_block, "SWEEP_RUN_ID=17"));
  CHECK_FALSE(environ_has(env_block, "SWEEP_RUN_ID=1"));
  CHECK_FALSE(environ_has("X_SWEEP_RUN_ID=17\0"s, "SWEEP_RUN_ID=17"));
  CHECK(environ_has("SWEEP_RUN_ID=17"s, "SWEEP_RUN_ID=17"));  // no final NUL
}

TEST_CASE("telemetry proc_stat: the tree under a root, the root included, not its siblings") {
  const std::map<int, int> parent_of{{1, 0}, {10, 1}, {11, 10}, {12, 11}, {20, 1}, {21, 20}};
  CHECK(tree_under(10, parent_of) == std::set<int>{10, 11, 12});
  CHECK(tree_under(12, parent_of) == std::set<int>{12});
}
