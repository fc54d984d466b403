// A typo in a matrix on a login node (issue 32, item 4): `sweep run` of a huge matrix is refused at once
// and small, a signal stops planning, and a dry run renders a bounded sample. Real `sweep` processes.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// "[0, 1, ..., n-1]"
std::string values(int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(i);
  return out + "]";
}

/// An experiment of three axes of 1,000 values: 10^9 points, plus `extra` lines.
std::string billion(const std::string& extra = "") {
  return "name: big\nmatrix:\n  a: " + values(1000) + "\n  b: " + values(1000) + "\n  c: " + values(1000) +
         "\n" + extra + "workload:\n  command: echo {{a}}\n";
}

struct Ended {
  int status = 0;
  long max_rss_kib = 0;
  double seconds = 0;
};

/// Waits for the background `sweep` (at most `limit`; killed and a failure past it).
/// Whether process `pid` has a handler for `sig` installed (its SigCgt mask in /proc/<pid>/status).
bool catches(int pid, int sig) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1u;
  return false;
}

Ended wait_for(int pid, std::chrono::seconds limit) {
  const auto start = std::chrono::steady_clock::now();
  Ended e;
  rusage usage{};
  for (;;) {
    const int got = ::wait4(pid, &e.status, WNOHANG, &usage);
    if (got == pid) break;
    if (std::chrono::steady_clock::now() - start > limit) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &e.status, 0, &usage);
      FAIL("sweep did not end within " << limit.count() << " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  e.max_rss_kib = usage.ru_maxrss;
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

}  // namespace

TEST_CASE("sweep run of a billion points is refused at once, with the axes' sizes, and nothing written") {
  Sandbox box;
  box.write("big.yaml", billion());
  const int pid = box.spawn_sweep({"run", "big.yaml"});
  const Ended e = wait_for(pid, std::chrono::seconds(60));
  REQUIRE(WIFEXITED(e.status));
  CHECK(WEXITSTATUS(e.status) == 3);
  CHECK(read_file(box.path(".sweep.bg.err")) ==
        "sweep: big.yaml:3:3: the matrix has 1,000,000,000 points (a 1,000 x b 1,000 x c 1,000), more than "
        "--max-points 100,000: check the axes for a typo, or raise the limit with --max-points (sweep plan lists a "
        "matrix of any size)\n");
  CHECK_FALSE(fs::exists(box.path("results")));
  INFO("refused in " << e.seconds << " s using " << e.max_rss_kib << " KiB");
  // Flat with the matrix's size: no more than refusing a matrix of 2 points over a limit of 1 (+ 20 MiB),
  // and, where no sanitizer's shadow memory inflates it, under the bound of 100 MB.
  box.write("two.yaml", "name: two\nmatrix:\n  a: [1, 2]\nworkload:\n  command: echo {{a}}\n");
  const Ended small = wait_for(box.spawn_sweep({"run", "two.yaml", "--max-points", "1"}), std::chrono::seconds(60));
  CHECK(e.max_rss_kib < small.max_rss_kib + 20 * 1024);
#if !defined(__SANITIZE_ADDRESS__)
  CHECK(e.max_rss_kib < 100 * 1024);
#endif
}

TEST_CASE("with exclusions the walk refuses once one point too many survives") {
  Sandbox box;
  box.write("big.yaml", billion("exclude:\n  - where: a > 0\n"));  // 10^6 points survive
  const Result r = box.sweep({"run", "big.yaml", "--max-points", "1000"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("more than --max-points 1,000 points of the matrix survive its exclusions "
                                    "(1,000,000,000 before them: a 1,000 x b 1,000 x c 1,000)"));
  CHECK_FALSE(fs::exists(box.path("results")));
}

TEST_CASE("the --max-points option raises the limit for a matrix that is meant") {
  Sandbox box;
  // The smallest matrix that decides: one point over the limit is refused, at the limit it runs.
  box.write("m.yaml", "name: m\nmatrix:\n  a: " + values(5) + "\n  b: " + values(4) + "\nworkload:\n  command: echo {{a}}\n");
  const Result refused = box.sweep({"run", "m.yaml", "--max-points", "19"});
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.err, Catch::Contains("the matrix has 20 points (a 5 x b 4), more than --max-points 19"));
  const Result ran = box.sweep({"run", "m.yaml", "--max-points", "20", "--label", "m", "--jobs", "2"});
  CHECK(ran.exit_code == 0);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE state = 'succeeded'") == 20);
  // The limit guards new campaigns: a resume takes the recorded points whatever the limit.
  CHECK(box.sweep({"run", "--resume", "m", "--max-points", "1"}).exit_code == 0);
}

TEST_CASE("SIGINT or SIGTERM while a huge matrix is planned exits 130 promptly, with nothing written") {
  for (const int sig : {SIGINT, SIGTERM}) {
    Sandbox box;
    // 10^9 combinations to walk, 1,000 of them kept: the walk would take minutes.
    box.write("big.yaml", billion("exclude:\n  - where: a > 0\n  - where: b > 0\n"));
    const int pid = box.spawn_sweep({"run", "big.yaml"});
    // Signalled once sweep handles both signals (it does so before it plans), however slowly a busy
    // machine or a sanitizer starts it; a bound on a hang.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!(catches(pid, SIGINT) && catches(pid, SIGTERM))) {
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, sig);
    const Ended e = wait_for(pid, std::chrono::seconds(30));  // the walk alone would take far longer
    INFO("signal " << sig << ", ended " << e.seconds << " s after it");
    REQUIRE(WIFEXITED(e.status));
    CHECK(WEXITSTATUS(e.status) == 130);
    CHECK(read_file(box.path(".sweep.bg.err")) ==
          "sweep: stopped by a signal while planning the campaign; nothing was recorded\n");
    CHECK_FALSE(fs::exists(box.path("results")));
  }
}

TEST_CASE("SIGINT or SIGTERM while a million runs are recorded exits 130 with nothing recorded") {
  for (const int sig : {SIGINT, SIGTERM}) {
    Sandbox box;
    box.write("m.yaml", "name: m\nrepetitions: 1000\nmatrix:\n  a: " + values(1000) + "\nworkload:\n  command: echo {{a}}\n");
    const int pid = box.spawn_sweep({"run", "m.yaml", "--label", "m"});
    // Recording begins once the campaign's run root is there (runner/campaign_setup.cpp makes it just
    // before): the signal follows it. A bound on a hang.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!fs::exists(box.path("results/m"))) {
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, sig);
    const Ended e = wait_for(pid, std::chrono::seconds(30));  // recording the million runs takes longer
    INFO("signal " << sig << ", ended " << e.seconds << " s after it");
    REQUIRE(WIFEXITED(e.status));
    CHECK(WEXITSTATUS(e.status) == 130);
    CHECK_THAT(read_file(box.path(".sweep.bg.err")),
               Catch::EndsWith("sweep: stopped by a signal while recording the campaign; nothing was recorded\n"));
    CHECK_FALSE(fs::exists(box.path("results/m")));
    auto db = box.db();
    CHECK(db.execAndGet("SELECT count(*) FROM campaigns").getInt() == 0);
    CHECK(db.execAndGet("SELECT count(*) FROM runs").getInt() == 0);
  }
}

TEST_CASE("a dry run renders a bounded sample of the job scripts, and says so") {
  Sandbox box;
  box.write("m.yaml", "name: m\nrepetitions: 3\nmatrix:\n  a: " + values(100) + "\n  b: " + values(10) +
                          "\nworkload:\n  command: echo {{a}} {{b}}\n");
  const Result sampled = box.sweep({"run", "m.yaml", "--dry-run", "--label", "s"});
  CHECK(sampled.exit_code == 0);
  CHECK_THAT(sampled.out, Catch::StartsWith("dry run: rendered a sample of 100 of the 3000 runs' job scripts, spread "
                                            "evenly over them, into "));
  const auto count = [&](const std::string& label) {
    return std::distance(fs::directory_iterator(box.path("results/" + label + "/dry-run")), fs::directory_iterator{});
  };
  CHECK(count("s") == 100);
  // The first run and the last are among them.
  std::string scripts;
  for (const auto& f : fs::directory_iterator(box.path("results/s/dry-run"))) scripts += read_file((f.path() / "run.sh").string());
  CHECK_THAT(scripts, Catch::Contains("echo 0 0\n") && Catch::Contains("echo 99 9\n"));
  const Result all = box.sweep({"run", "m.yaml", "--dry-run", "--dry-run-sample", "0", "--label", "all"});
  CHECK_THAT(all.out, Catch::StartsWith("dry run: rendered 3000 job scripts into "));
  CHECK(count("all") == 3000);
  CHECK_FALSE(fs::exists(box.path("results/sweep.db")));
}
