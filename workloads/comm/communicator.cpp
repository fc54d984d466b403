#include "comm/communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "comm/backends.h"

namespace sweep::comm {
namespace {

using Connect = std::unique_ptr<Communicator> (*)(const RankInfo&, const Options&);

struct BackendInfo {
  Backend backend;
  std::string_view name;
  Connect connect;        // nullptr: not compiled into this build
  std::string_view needs;  // what a build needs to have it
};

/// SWEEP_NCCL_MIN_VERSION, the oldest NCCL the nccl backend builds against, is a compile
/// definition from workloads/comm/nccl_version.cmake: the one place it is written.
constexpr std::array<BackendInfo, 3> kBackends{{
#ifdef SWEEP_WITH_MPI
    {Backend::mpi, "mpi", detail::connect_mpi, "Open MPI (SWEEP_MPI)"},
#else
    {Backend::mpi, "mpi", nullptr, "Open MPI (SWEEP_MPI)"},
#endif
#ifdef SWEEP_WITH_GLOO
    {Backend::gloo, "gloo", detail::connect_gloo, "libgloo (SWEEP_GLOO)"},
#else
    {Backend::gloo, "gloo", nullptr, "libgloo (SWEEP_GLOO)"},
#endif
#ifdef SWEEP_WITH_NCCL
    {Backend::nccl, "nccl", detail::connect_nccl, "CUDA and NCCL " SWEEP_NCCL_MIN_VERSION "+"},
#else
    {Backend::nccl, "nccl", nullptr, "CUDA and NCCL " SWEEP_NCCL_MIN_VERSION "+"},
#endif
}};

constexpr std::array<std::pair<Collective, std::string_view>, kCollectives> kCollectiveNames{{
    {Collective::allreduce, "allreduce"},
    {Collective::allgather, "allgather"},
    {Collective::reducescatter, "reducescatter"},
    {Collective::broadcast, "broadcast"},
    {Collective::alltoall, "alltoall"},
    {Collective::sendrecv, "sendrecv"},
    {Collective::barrier, "barrier"},
}};

const BackendInfo& info(Backend backend) {
  for (const auto& b : kBackends)
    if (b.backend == backend) return b;
  return kBackends[0];
}

}  // namespace

std::string_view name_of(Backend backend) { return info(backend).name; }
bool compiled_in(Backend backend) { return info(backend).connect != nullptr; }

std::optional<Backend> parse_backend(std::string_view text) {
  for (const auto& b : kBackends)
    if (b.name == text) return b.backend;
  return std::nullopt;
}

std::string_view name_of(Collective collective) { return kCollectiveNames[static_cast<std::size_t>(collective)].second; }

std::optional<Collective> parse_collective(std::string_view text) {
  for (const auto& [c, name] : kCollectiveNames)
    if (name == text) return c;
  return std::nullopt;
}

std::uint64_t Traffic::total_bytes() const { return std::accumulate(bytes.begin(), bytes.end(), std::uint64_t{0}); }

std::unique_ptr<Communicator> connect(Backend backend, const RankInfo& rank, const Options& options) {
  const BackendInfo& b = info(backend);
  if (!b.connect) {
    std::string available;
    for (const auto& other : kBackends)
      if (other.connect) available += (available.empty() ? "" : ", ") + std::string(other.name);
    throw std::runtime_error("backend \"" + std::string(b.name) + "\" is not available in this build (it needs " +
                             std::string(b.needs) + " at build time; available: " +
                             (available.empty() ? "none" : available) + ")");
  }
  return b.connect(rank, options);
}

std::unique_ptr<Buffer> Communicator::allocate(std::size_t bytes) { return std::make_unique<detail::HostBuffer>(bytes); }

void Communicator::count(Collective c, std::size_t bytes) {
  const auto i = static_cast<std::size_t>(c);
  ++traffic_.calls[i];
  traffic_.bytes[i] += bytes;
}

void Communicator::check_peer(int peer, std::string_view what) const {
  if (peer < 0 || peer >= size_)
    throw std::runtime_error(std::string(what) + " rank " + std::to_string(peer) + " is outside [0, " +
                             std::to_string(size_) + ")");
}

void Communicator::all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) {
  this->count(Collective::allreduce, count * size_of(type));
  do_all_reduce(in, out, count, type, op);
}

void Communicator::all_gather(const void* in, void* out, std::size_t count, DType type) {
  this->count(Collective::allgather, count * size_of(type));
  do_all_gather(in, out, count, type);
}

void Communicator::reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) {
  this->count(Collective::reducescatter, count * size_of(type) * static_cast<std::size_t>(size_));
  do_reduce_scatter(in, out, count, type, op);
}

void Communicator::broadcast(const void* in, void* out, std::size_t count, DType type, int root) {
  check_peer(root, "broadcast root");
  this->count(Collective::broadcast, count * size_of(type));
  do_broadcast(in, out, count, type, root);
}

void Communicator::all_to_all(const void* in, void* out, std::size_t count, DType type) {
  this->count(Collective::alltoall, count * size_of(type) * static_cast<std::size_t>(size_));
  do_all_to_all(in, out, count, type);
}

void Communicator::send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) {
  check_peer(to, "send_recv destination");
  check_peer(from, "send_recv source");
  this->count(Collective::sendrecv, 2 * count * size_of(type));  // what it sends and what it receives
  do_send_recv(in, to, out, from, count, type);
}

void Communicator::send(const void* in, std::size_t count, DType type, int to) {
  check_peer(to, "send destination");
  this->count(Collective::sendrecv, count * size_of(type));
  do_send(in, count, type, to);
}

void Communicator::recv(void* out, std::size_t count, DType type, int from) {
  check_peer(from, "recv source");
  this->count(Collective::sendrecv, count * size_of(type));
  do_recv(out, count, type, from);
}

void Communicator::barrier() {
  this->count(Collective::barrier, 0);
  do_barrier();
}

std::vector<int> Communicator::members(const std::vector<int>& colors_and_keys, int color) {
  std::vector<int> ranks;
  for (std::size_t r = 0; r + 1 < colors_and_keys.size(); r += 2)
    if (colors_and_keys[r] == color) ranks.push_back(static_cast<int>(r / 2));
  std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
    return colors_and_keys[static_cast<std::size_t>(2 * a + 1)] < colors_and_keys[static_cast<std::size_t>(2 * b + 1)];
  });
  return ranks;
}

double Communicator::timed(const std::function<void()>& calls) {
  const auto start = std::chrono::steady_clock::now();
  calls();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<Communicator> Communicator::split(int color, int key) {
  const std::array<std::int32_t, 2> mine{color, key};
  std::vector<std::int32_t> all(2 * static_cast<std::size_t>(size_));
  this->count(Collective::allgather, sizeof mine);
  host_all_gather(mine.data(), all.data(), mine.size());
  const auto ranks = members(std::vector<int>(all.begin(), all.end()), color);
  auto group = do_split(color, ranks);
  std::vector<std::string> hosts;
  for (int r : ranks) hosts.push_back(r < static_cast<int>(hosts_.size()) ? hosts_[static_cast<std::size_t>(r)] : "");
  group->set_hosts(std::move(hosts));
  return group;
}

namespace detail {

HostBuffer::HostBuffer(std::size_t bytes) {
  bytes_ = bytes;
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (!data_) throw std::bad_alloc();
  std::memset(data_, 0, rounded == 0 ? 64 : rounded);
}

HostBuffer::~HostBuffer() { std::free(data_); }

void HostBuffer::upload(const void* host, std::size_t bytes) { std::memcpy(data_, host, bytes); }
void HostBuffer::download(void* host, std::size_t bytes) const { std::memcpy(host, data_, bytes); }

}  // namespace detail
}  // namespace sweep::comm
