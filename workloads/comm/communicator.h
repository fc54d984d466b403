#pragma once
// The communicator layer shared by the bundled workloads: one interface, three backends (mpi, gloo,
// nccl). Collectives work on raw buffers with a dtype. Every call counts the bytes it hands to the
// backend, so a workload can report its network volume.
//
// Contracts shared by all backends:
// - Calls are collective: every rank makes the same calls in the same order with the same counts.
// - `in == out` means in place. Buffers come from allocate() (device memory for nccl).
// - CPU backends complete each call before returning; nccl enqueues on its stream, and synchronize()
//   waits for everything enqueued. timed() runs calls to completion on every backend.
// - Memory: mpi and gloo read and write host memory; nccl reads and writes device memory of its GPU
//   (device_memory()). A caller with data on a GPU stages it through host memory for a CPU backend.
// - Errors (a peer that never arrives, a mismatched world size, an unsupported dtype) throw
//   std::runtime_error with a message that names the ranks or the value at fault.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "comm/dtype.h"
#include "comm/rank_env.h"

namespace sweep::comm {

enum class Backend { mpi, gloo, nccl };
enum class Collective { allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv, barrier };
constexpr std::size_t kCollectives = 7;

std::string_view name_of(Backend backend);
std::optional<Backend> parse_backend(std::string_view text);
std::string_view name_of(Collective collective);
std::optional<Collective> parse_collective(std::string_view text);
/// True when this build has the backend (nccl needs CUDA and NCCL at build time).
bool compiled_in(Backend backend);

struct Options {
  /// How long to wait for a peer: at start (all ranks present) and, on gloo, for each transfer.
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  /// gloo and nccl: a directory shared by all ranks (on a cluster, on the shared filesystem). A
  /// subdirectory named after the launch (Slurm job and step, PMIx namespace, or master address and
  /// port) is used inside it. Empty: the working directory.
  std::string rendezvous_dir;
  /// Calls on different communicators of one world (the world and its split groups) will come from
  /// different threads at once. MPI then asks for MPI_THREAD_MULTIPLE; whether it was granted is
  /// Communicator::concurrent().
  bool concurrent = false;
};

/// Memory that collectives read and write: host memory for mpi and gloo, device memory for nccl.
class Buffer {
 public:
  virtual ~Buffer() = default;
  void* data() { return data_; }
  std::size_t bytes() const { return bytes_; }
  /// Copies between host memory and the buffer (a memcpy on CPU backends).
  virtual void upload(const void* host, std::size_t bytes) = 0;
  virtual void download(void* host, std::size_t bytes) const = 0;

 protected:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Calls and bytes handed to the backend, per collective. Bytes are the size of the input buffer of
/// each call (for recv, the receive buffer; for send_recv, both): count·elemsize, times the world size
/// for reduce-scatter and all-to-all, whose input holds one block per rank.
struct Traffic {
  std::array<std::uint64_t, kCollectives> calls{};
  std::array<std::uint64_t, kCollectives> bytes{};
  std::uint64_t total_bytes() const;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Host name of every rank, gathered at start (index = rank).
  const std::vector<std::string>& hosts() const { return hosts_; }
  virtual std::string_view backend() const = 0;
  /// The library and its version, e.g. "Open MPI v4.1.4" or "NCCL 2.28.3".
  virtual std::string library_version() const = 0;
  /// Whether this communicator may run a call while another thread runs one on a different
  /// communicator of the same world (gloo: always; mpi: when MPI_THREAD_MULTIPLE was granted).
  /// Calls on one communicator always come from one thread at a time.
  virtual bool concurrent() const { return false; }
  virtual std::unique_ptr<Buffer> allocate(std::size_t bytes);

  /// out[i] = op over ranks of in[i], i < count.
  void all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op);
  /// out holds size() blocks of `count`; block r is rank r's in.
  void all_gather(const void* in, void* out, std::size_t count, DType type);
  /// in holds size() blocks of `count`; out = op over ranks of their block rank().
  void reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op);
  /// out = root's in on every rank.
  void broadcast(const void* in, void* out, std::size_t count, DType type, int root);
  /// in and out hold size() blocks of `count`; out block r = rank r's in block rank().
  void all_to_all(const void* in, void* out, std::size_t count, DType type);
  /// Sends `in` to `to` while receiving `out` from `from` (both may be this rank's peers in a ring).
  void send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type);
  void send(const void* in, std::size_t count, DType type, int to);
  void recv(void* out, std::size_t count, DType type, int from);
  void barrier();
  /// Waits until every call made so far has completed (nccl); a no-op on CPU backends.
  virtual void synchronize() {}
  /// Whether buffers are device memory (nccl: the GPU this rank uses) rather than host memory.
  virtual bool device_memory() const { return false; }
  /// Runs `calls` (calls on this communicator, made by the calling thread) to completion and returns
  /// the seconds they took. CPU backends: the host clock around them. nccl: they are first ordered
  /// after all work the process has enqueued so far on its GPU's default stream (where libtorch runs
  /// its kernels, whichever thread enqueued them), then timed with CUDA events on the communicator's
  /// stream, waited for before returning; so what they wrote may be read by any later work.
  virtual double timed(const std::function<void()>& calls);
  /// What timed() measures with, in words for a report's header.
  virtual std::string clock() const { return "host clock"; }

  /// Collective over this communicator: the ranks that pass the same `color` form a new communicator,
  /// ordered by `key`, then by their rank here. Used for the groups of a parallel layout (data, tensor
  /// and pipeline parallel ranks). The new communicator counts its own traffic; the exchange that sets
  /// it up (every rank's color and key, through host_all_gather() on every backend) is counted here as
  /// one all-gather of 2 int32.
  std::unique_ptr<Communicator> split(int color, int key);
  /// Ranks of this communicator that form the new one of split(), in its rank order.
  static std::vector<int> members(const std::vector<int>& colors_and_keys, int color);

  const Traffic& traffic() const { return traffic_; }

 protected:
  Communicator(int rank, int size) : rank_(rank), size_(size) {}
  void set_hosts(std::vector<std::string> hosts) { hosts_ = std::move(hosts); }

  virtual void do_all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) = 0;
  virtual void do_all_gather(const void* in, void* out, std::size_t count, DType type) = 0;
  virtual void do_reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) = 0;
  virtual void do_broadcast(const void* in, void* out, std::size_t count, DType type, int root) = 0;
  virtual void do_all_to_all(const void* in, void* out, std::size_t count, DType type) = 0;
  virtual void do_send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) = 0;
  virtual void do_send(const void* in, std::size_t count, DType type, int to) = 0;
  virtual void do_recv(void* out, std::size_t count, DType type, int from) = 0;
  virtual void do_barrier() = 0;
  /// `members`: this communicator's ranks in the new one, in its rank order (this rank among them).
  virtual std::unique_ptr<Communicator> do_split(int color, const std::vector<int>& members) = 0;
  /// Gathers `count` int32 of host memory from every rank: `out` (host, size()·count) gets rank r's `in`
  /// as block r, complete on return. Setup exchanges (split) go through it, never through a collective
  /// on host memory: CPU backends use their all-gather, nccl stages through device memory. Not counted
  /// in traffic(); the caller counts what it exchanges.
  virtual void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) = 0;

 private:
  void count(Collective c, std::size_t bytes);
  void check_peer(int peer, std::string_view what) const;

  int rank_;
  int size_;
  std::vector<std::string> hosts_;
  Traffic traffic_;
};

/// Starts the backend for this rank and waits until all ranks are present. Throws std::runtime_error
/// when the backend is not compiled in, when peers do not arrive within options.timeout (naming them),
/// or when the ranks disagree on the world size.
std::unique_ptr<Communicator> connect(Backend backend, const RankInfo& rank, const Options& options);

}  // namespace sweep::comm
