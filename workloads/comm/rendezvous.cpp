#include "comm/rendezvous.h"

#include <ftw.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace sweep::comm {
namespace fs = std::filesystem;

FileRendezvous::FileRendezvous(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("cannot create the rendezvous directory " + dir_ + ": " + ec.message());
}

void FileRendezvous::set(const std::string& key, const std::string& value) const {
  const std::string tmp = dir_ + "/." + key + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << value;
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  std::error_code ec;
  fs::rename(tmp, dir_ + "/" + key, ec);
  if (ec) throw std::runtime_error("cannot rename " + tmp + ": " + ec.message());
}

void FileRendezvous::remove() const {
  // Depth first, without following links: files and links are unlinked, directories removed once empty.
  ::nftw(
      dir_.c_str(), [](const char* path, const struct stat*, int, struct FTW*) { ::remove(path); return 0; }, 16,
      FTW_DEPTH | FTW_PHYS);
}

std::optional<std::string> FileRendezvous::get(const std::string& key) const {
  std::ifstream in(dir_ + "/" + key, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> FileRendezvous::wait(const std::vector<std::string>& keys,
                                              std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    std::vector<std::string> missing;
    for (const auto& key : keys)
      if (!fs::exists(dir_ + "/" + key)) missing.push_back(key);
    if (missing.empty() || std::chrono::steady_clock::now() >= deadline) return missing;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

namespace {

std::string safe_name(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return text;
}

std::optional<std::string> launch_name(const RankInfo& rank, const EnvLookup& env) {
  const auto slurm = [&]() -> std::optional<std::string> {
    auto job = env("SLURM_JOB_ID");
    auto step = env("SLURM_STEP_ID");
    if (!job || !step) return std::nullopt;
    return "slurm-" + *job + "." + *step;
  };
  const auto pmix = [&]() -> std::optional<std::string> {
    auto ns = env("PMIX_NAMESPACE");
    return ns ? std::optional<std::string>("pmix-" + *ns) : std::nullopt;
  };
  const auto master = [&]() -> std::optional<std::string> {
    auto addr = env("MASTER_ADDR");
    auto port = env("MASTER_PORT");
    if (!addr || !port) return std::nullopt;
    return "master-" + *addr + "-" + *port;
  };
  // mpirun inside a Slurm job: the PMIx namespace names this mpirun, the Slurm step does not.
  const bool openmpi = rank.source == "openmpi";
  for (const auto& candidate : {openmpi ? pmix() : slurm(), openmpi ? slurm() : pmix(), master()})
    if (candidate) return candidate;
  return std::nullopt;
}

}  // namespace

std::string launch_directory(const std::string& base, const RankInfo& rank, const EnvLookup& env) {
  // Under sweep the run directory, shared by the run's ranks and by no other run (its working directory
  // is the experiment's, shared by runs: docs/experiment-format.md, "Where a run runs").
  const auto run_dir = env("SWEEP_RUN_DIR");
  const std::string fallback = run_dir && !run_dir->empty() ? *run_dir : fs::current_path().string();
  const std::string root = (base.empty() ? fallback : base) + "/.comm-rendezvous/";
  if (rank.world_size == 1) return root + "single-" + host_name() + "-" + std::to_string(::getpid());
  const auto name = launch_name(rank, env);
  if (!name)
    throw std::runtime_error("cannot name this launch for the rendezvous: none of SLURM_JOB_ID+SLURM_STEP_ID, "
                             "PMIX_NAMESPACE or MASTER_ADDR+MASTER_PORT is set (" +
                             std::to_string(rank.world_size) + " ranks from " + rank.source +
                             " variables); pass a fresh rendezvous directory shared by all ranks");
  return root + safe_name(*name);
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::string node_name() {
  const char* node = std::getenv("SLURMD_NODENAME");
  return node && *node ? node : host_name();
}

std::vector<Peer> meet(const FileRendezvous& store, const RankInfo& rank, std::chrono::milliseconds timeout) {
  store.set("hello." + std::to_string(rank.rank),
            std::to_string(rank.world_size) + " " + host_name() + " " + node_name());
  std::vector<std::string> keys;
  for (int r = 0; r < rank.world_size; ++r) keys.push_back("hello." + std::to_string(r));
  const auto missing = store.wait(keys, timeout);
  if (!missing.empty()) {
    std::string ranks;
    for (const auto& key : missing) ranks += (ranks.empty() ? "" : ", ") + key.substr(6);
    throw std::runtime_error("rank(s) " + ranks + " of " + std::to_string(rank.world_size) + " did not arrive within " +
                             fmt::format("{:g}", static_cast<double>(timeout.count()) / 1000.0) +
                             " s (rendezvous directory " + store.dir() + ")");
  }
  std::vector<Peer> peers;
  for (int r = 0; r < rank.world_size; ++r) {
    std::istringstream hello(store.get(keys[static_cast<std::size_t>(r)]).value_or(""));
    int world = 0;
    Peer peer;
    hello >> world >> peer.host >> peer.node;
    if (world != rank.world_size)
      throw std::runtime_error("rank " + std::to_string(r) + " was started with world size " + std::to_string(world) +
                               ", rank " + std::to_string(rank.rank) + " with " + std::to_string(rank.world_size) +
                               " (rendezvous directory " + store.dir() + ")");
    peers.push_back(peer);
  }
  return peers;
}

}  // namespace sweep::comm
