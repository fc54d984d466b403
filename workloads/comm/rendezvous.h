#pragma once
// Rendezvous through files in a directory that all ranks share (gloo and nccl backends): every rank
// announces itself, waits for the others within a timeout, and learns every rank's host.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "comm/rank_env.h"

namespace sweep::comm {

/// A key-value store of files in one directory. set() is atomic (write, then rename), so a reader sees
/// a value whole or not at all.
class FileRendezvous {
 public:
  /// Creates `dir` (and its parents) when missing; throws std::runtime_error when it cannot.
  explicit FileRendezvous(std::string dir);
  const std::string& dir() const { return dir_; }
  void set(const std::string& key, const std::string& value) const;
  std::optional<std::string> get(const std::string& key) const;
  /// Waits until every key exists or `timeout` passes; returns the keys still missing.
  std::vector<std::string> wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) const;
  /// Deletes the directory and what it holds, ignoring errors (another rank may be deleting too). Uses
  /// POSIX calls, not std::filesystem::remove_all: PyTorch's libtorch.so exports its own copy of that
  /// function, which a program linked with it may call, and that copy crashed (PyTorch 2.11).
  void remove() const;

 private:
  std::string dir_;
};

/// The directory of this launch under `base`: `<base>/.comm-rendezvous/<launch>`, where <launch> comes
/// from SLURM_JOB_ID and SLURM_STEP_ID, PMIX_NAMESPACE (mpirun), or MASTER_ADDR and MASTER_PORT, in
/// the order that fits rank.source. A single process gets a name of its own. Throws when ranks > 1
/// and nothing names the launch (then the caller must pass a fresh directory itself).
std::string launch_directory(const std::string& base, const RankInfo& rank, const EnvLookup& env);

struct Peer {
  std::string host;  // host_name(): what the network knows the machine as
  std::string node;  // node_name(): what the scheduler calls it
  friend bool operator==(const Peer&, const Peer&) = default;
};

/// Announces this rank ("hello.<rank>" holds the world size, host and node), waits for all ranks, and
/// returns every rank's (index = rank). Throws std::runtime_error naming the ranks that did not arrive
/// within `timeout`, or the rank whose world size differs from this one's.
std::vector<Peer> meet(const FileRendezvous& store, const RankInfo& rank, std::chrono::milliseconds timeout);

/// This machine's host name (gethostname).
std::string host_name();
/// The scheduler's name for this node: SLURMD_NODENAME under Slurm (several emulated nodes may share
/// a host), else host_name().
std::string node_name();

}  // namespace sweep::comm
