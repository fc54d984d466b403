#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>

#include <unistd.h>

#include "comm/rendezvous.h"

using namespace sweep::comm;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("sweep-rendezvous-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir.string();
}

RankInfo rank_of(int rank, int world) {
  RankInfo r;
  r.rank = rank;
  r.world_size = world;
  r.source = "torchrun";
  return r;
}

}  // namespace

TEST_CASE("ranks meet through files and learn every host") {
  const FileRendezvous store(fresh_dir("meet"));
  std::vector<Peer> hosts0;
  std::thread other([&] { hosts0 = meet(store, rank_of(0, 3), 10s); });
  std::thread third([&] { (void)meet(store, rank_of(2, 3), 10s); });
  const auto hosts1 = meet(store, rank_of(1, 3), 10s);
  other.join();
  third.join();
  CHECK(hosts1.size() == 3);
  CHECK(hosts1 == hosts0);
  CHECK(hosts1[0].host == host_name());
  CHECK(hosts1[0].node == node_name());
  fs::remove_all(store.dir());
}

TEST_CASE("a rank that never arrives is named in a timeout error") {
  const FileRendezvous store(fresh_dir("missing"));
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(meet(store, rank_of(0, 4), 300ms),
                    Catch::StartsWith("rank(s) 1, 2, 3 of 4 did not arrive within 0.3 s"));
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  fs::remove_all(store.dir());
}

TEST_CASE("ranks started with different world sizes are refused") {
  const FileRendezvous store(fresh_dir("mismatch"));
  store.set("hello.1", "3 otherhost");
  CHECK_THROWS_WITH(meet(store, rank_of(0, 2), 2s), Catch::StartsWith("rank 1 was started with world size 3, rank 0 with 2"));
  fs::remove_all(store.dir());
}

TEST_CASE("the launch directory is named after the Slurm step, the mpirun namespace or the master") {
  const std::map<std::string, std::string> vars{{"SLURM_JOB_ID", "17"}, {"SLURM_STEP_ID", "2"},
                                                {"PMIX_NAMESPACE", "prterun-vm-1@1"}, {"MASTER_ADDR", "h"},
                                                {"MASTER_PORT", "1"}};
  const EnvLookup env = [&](std::string_view n) -> std::optional<std::string> {
    auto it = vars.find(std::string(n));
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  auto r = rank_of(0, 2);
  r.source = "slurm";
  CHECK(launch_directory("/shared", r, env) == "/shared/.comm-rendezvous/slurm-17.2");
  r.source = "openmpi";
  CHECK(launch_directory("/shared", r, env) == "/shared/.comm-rendezvous/pmix-prterun-vm-1_1");
  const EnvLookup none = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  CHECK_THROWS_WITH(launch_directory("/shared", r, none), Catch::Contains("cannot name this launch"));
}

TEST_CASE("without a base the launch directory is under the sweep run's directory, else the working directory") {
  const EnvLookup under_sweep = [](std::string_view n) -> std::optional<std::string> {
    if (n == "SWEEP_RUN_DIR") return "/results/c/p.rep0.attempt1";
    if (n == "SLURM_JOB_ID") return "17";
    if (n == "SLURM_STEP_ID") return "2";
    return std::nullopt;
  };
  auto r = rank_of(0, 2);
  r.source = "slurm";
  CHECK(launch_directory("", r, under_sweep) == "/results/c/p.rep0.attempt1/.comm-rendezvous/slurm-17.2");
  CHECK(launch_directory("/shared", r, under_sweep) == "/shared/.comm-rendezvous/slurm-17.2");
  const EnvLookup plain = [](std::string_view n) -> std::optional<std::string> {
    if (n == "SLURM_JOB_ID") return "17";
    if (n == "SLURM_STEP_ID") return "2";
    return std::nullopt;
  };
  CHECK(launch_directory("", r, plain) == fs::current_path().string() + "/.comm-rendezvous/slurm-17.2");
}
