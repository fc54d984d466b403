// The gloo backend: Debian's libgloo over TCP (the only user of gloo, with gloo_ring.cpp). Ranks meet
// through files in a shared directory; all-reduce, reduce-scatter and all-gather are rings of
// gloo_ring.cpp, which support every dtype; broadcast, all-to-all and barrier are gloo's own.
#include <gloo/alltoall.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/config.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "comm/backends.h"
#include "comm/gloo_ring.h"
#include "comm/reduce.h"
#include "comm/rendezvous.h"

namespace sweep::comm::detail {
namespace {

// Point-to-point messages use one fixed slot, far above the slots that collectives take in turn.
constexpr std::uint64_t kPointToPointSlot = std::uint64_t{1} << 40;

char* at(void* p, std::size_t elements, DType type) { return static_cast<char*>(p) + elements * size_of(type); }

// A context over pairs that split() connected itself (gloo's own contexts connect through a store).
class GroupContext final : public gloo::Context {
 public:
  GroupContext(int group_rank, int group_size, std::shared_ptr<gloo::transport::Device> device,
               std::shared_ptr<gloo::transport::Context> transport)
      : gloo::Context(group_rank, group_size) {
    device_ = std::move(device);
    transportContext_ = std::move(transport);
  }
};

// Each rank publishes the address of its pair for every group peer in a fixed slot of this size.
constexpr std::size_t kAddressSlot = 512;

class GlooCommunicator final : public Communicator {
 public:
  GlooCommunicator(std::shared_ptr<gloo::Context> context, std::shared_ptr<gloo::transport::Device> device)
      : Communicator(context->rank, context->size), context_(std::move(context)), device_(std::move(device)) {}
  void set_peer_hosts(std::vector<std::string> hosts) { set_hosts(std::move(hosts)); }

  std::string_view backend() const override { return "gloo"; }
  bool concurrent() const override { return true; }  // each group has its own pairs
  std::string library_version() const override {
    return "gloo " + std::to_string(GLOO_VERSION_MAJOR) + "." + std::to_string(GLOO_VERSION_MINOR) + "." +
           std::to_string(GLOO_VERSION_PATCH) + " (tcp)";
  }

 protected:
  void do_all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    const Partition blocks{count, size()};
    void* own = at(out, blocks.begin(rank()), type);
    guarded([&] { ring_reduce_scatter(*context_, in, out, own, blocks, type, op, scratch_); });
    if (op == ReduceOp::avg) divide(own, blocks.size(rank()), type, size());
    guarded([&] { ring_all_gather(*context_, out, blocks, size_of(type)); });
  }
  void do_all_gather(const void* in, void* out, std::size_t count, DType type) override {
    const Partition blocks{count * static_cast<std::size_t>(size()), size()};
    void* own = at(out, blocks.begin(rank()), type);
    if (own != in) std::memcpy(own, in, count * size_of(type));
    guarded([&] { ring_all_gather(*context_, out, blocks, size_of(type)); });
  }
  void do_reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    const Partition blocks{count * static_cast<std::size_t>(size()), size()};
    workspace_.resize(std::max(workspace_.size(), blocks.count * size_of(type)));
    guarded([&] { ring_reduce_scatter(*context_, in, workspace_.data(), out, blocks, type, op, scratch_); });
    if (op == ReduceOp::avg) divide(out, count, type, size());
  }
  void do_broadcast(const void* in, void* out, std::size_t count, DType type, int root) override {
    const std::size_t bytes = count * size_of(type);
    if (rank() == root && in != out) std::memcpy(out, in, bytes);
    gloo::BroadcastOptions options(context_);
    options.setOutput(static_cast<std::uint8_t*>(out), bytes);
    options.setRoot(root);
    options.setTag(next_tag());
    guarded([&] { gloo::broadcast(options); });
  }
  void do_all_to_all(const void* in, void* out, std::size_t count, DType type) override {
    const std::size_t bytes = count * size_of(type) * static_cast<std::size_t>(size());
    if (in == out) {
      workspace_.resize(std::max(workspace_.size(), bytes));
      std::memcpy(workspace_.data(), in, bytes);
      in = workspace_.data();
    }
    gloo::AlltoallOptions options(context_);
    options.setInput(const_cast<std::uint8_t*>(static_cast<const std::uint8_t*>(in)), bytes);
    options.setOutput(static_cast<std::uint8_t*>(out), bytes);
    options.setTag(next_tag());
    guarded([&] { gloo::alltoall(options); });
  }
  void do_send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) override {
    const std::size_t bytes = count * size_of(type);
    auto send = context_->createUnboundBuffer(const_cast<void*>(in), bytes);
    auto recv = context_->createUnboundBuffer(out, bytes);
    guarded([&] {
      send->send(to, kPointToPointSlot);
      recv->recv(from, kPointToPointSlot);
      recv->waitRecv();
      send->waitSend();
    });
  }
  void do_send(const void* in, std::size_t count, DType type, int to) override {
    auto send = context_->createUnboundBuffer(const_cast<void*>(in), count * size_of(type));
    guarded([&] {
      send->send(to, kPointToPointSlot);
      send->waitSend();
    });
  }
  void do_recv(void* out, std::size_t count, DType type, int from) override {
    auto recv = context_->createUnboundBuffer(out, count * size_of(type));
    guarded([&] {
      recv->recv(from, kPointToPointSlot);
      recv->waitRecv();
    });
  }
  void do_barrier() override {
    gloo::BarrierOptions options(context_);
    options.setTag(next_tag());
    guarded([&] { gloo::barrier(options); });
  }
  std::unique_ptr<Communicator> do_split(int, const std::vector<int>& members) override;
  void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) override {
    do_all_gather(in, out, count, DType::int32);
  }

 private:
  std::uint32_t next_tag() { return tag_++; }

  // gloo reports a lost or silent peer as gloo::IoException; say which rank saw it.
  template <typename F>
  void guarded(F&& f) {
    try {
      f();
    } catch (const gloo::Exception& e) {
      throw std::runtime_error("gloo on rank " + std::to_string(rank()) + ": " + e.what());
    }
  }

  std::shared_ptr<gloo::Context> context_;
  std::shared_ptr<gloo::transport::Device> device_;
  std::vector<char> scratch_;
  std::vector<char> workspace_;
  std::uint32_t tag_ = 0;
};

// New pairs on the same device for the group's peers; their addresses travel through this
// communicator (an all-gather of one slot per rank and peer), then each pair connects to its peer's.
std::unique_ptr<Communicator> GlooCommunicator::do_split(int, const std::vector<int>& members) {
  const int n = static_cast<int>(members.size());
  const int me = static_cast<int>(std::find(members.begin(), members.end(), rank()) - members.begin());
  const std::size_t world = static_cast<std::size_t>(size());
  std::shared_ptr<gloo::transport::Context> transport = device_->createContext(me, n);
  transport->setTimeout(context_->getTimeout());
  std::vector<char> mine(world * kAddressSlot, 0), all(world * world * kAddressSlot, 0);
  for (int peer = 0; peer < n; ++peer) {
    if (peer == me) continue;
    const std::vector<char> address = transport->createPair(peer)->address().bytes();
    if (address.size() + sizeof(std::uint32_t) > kAddressSlot)
      throw std::runtime_error("gloo: a pair address of " + std::to_string(address.size()) + " bytes exceeds its slot");
    const auto length = static_cast<std::uint32_t>(address.size());
    char* slot = mine.data() + static_cast<std::size_t>(peer) * kAddressSlot;
    std::memcpy(slot, &length, sizeof length);
    std::memcpy(slot + sizeof length, address.data(), address.size());
  }
  all_gather(mine.data(), all.data(), mine.size() / sizeof(std::int32_t), DType::int32);
  guarded([&] {
    for (int peer = 0; peer < n; ++peer) {
      if (peer == me) continue;
      const char* slot = all.data() + static_cast<std::size_t>(members[static_cast<std::size_t>(peer)]) * world * kAddressSlot +
                         static_cast<std::size_t>(me) * kAddressSlot;
      std::uint32_t length = 0;
      std::memcpy(&length, slot, sizeof length);
      transport->getPair(peer)->connect(std::vector<char>(slot + sizeof length, slot + sizeof length + length));
    }
  });
  auto context = std::make_shared<GroupContext>(me, n, device_, std::move(transport));
  context->setTimeout(context_->getTimeout());
  return std::make_unique<GlooCommunicator>(std::move(context), device_);
}

bool resolves(const std::string& host) {
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, nullptr, &found);
  if (found) ::freeaddrinfo(found);
  return rc == 0;
}

// The first IPv4 interface that is up and not loopback, or "" when there is none.
std::string first_interface() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string name;
  for (const ifaddrs* i = list; i && name.empty(); i = i->ifa_next)
    if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK))
      name = i->ifa_name;
  ::freeifaddrs(list);
  return name;
}

// The address to listen on: GLOO_SOCKET_IFNAME when set (as in PyTorch), loopback when every rank is
// on this host, this host's name when it resolves, else the first interface that is up (emulated
// nodes such as the development cluster's have names that no resolver knows).
gloo::transport::tcp::attr device_attr(const std::vector<Peer>& peers) {
  gloo::transport::tcp::attr attr;
  const std::string host = host_name();
  if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface) {
    attr.iface = iface;
  } else if (std::all_of(peers.begin(), peers.end(), [&](const Peer& p) { return p.host == peers.front().host; })) {
    attr.hostname = "127.0.0.1";
  } else if (resolves(host) || first_interface().empty()) {
    attr.hostname = host;
  } else {
    attr.iface = first_interface();
  }
  return attr;
}

}  // namespace

std::unique_ptr<Communicator> connect_gloo(const RankInfo& rank, const Options& options) {
  const auto env = [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    return v && *v ? std::optional<std::string>(v) : std::nullopt;
  };
  const FileRendezvous files(launch_directory(options.rendezvous_dir, rank, env));
  const auto peers = meet(files, rank, options.timeout);
  std::vector<std::string> hosts;
  for (const Peer& p : peers) hosts.push_back(p.node);
  try {
    auto device = gloo::transport::tcp::CreateDevice(device_attr(peers));
    gloo::rendezvous::FileStore store(files.dir());
    auto context = std::make_shared<gloo::rendezvous::Context>(rank.rank, rank.world_size);
    context->setTimeout(options.timeout);
    context->connectFullMesh(store, device);
    auto comm = std::make_unique<GlooCommunicator>(std::move(context), device);
    comm->set_peer_hosts(std::move(hosts));
    comm->barrier();  // everyone is connected: the rendezvous files are no longer needed
    if (rank.rank == 0) files.remove();
    return comm;
  } catch (const gloo::Exception& e) {
    throw std::runtime_error("gloo rendezvous in " + files.dir() + " failed on rank " + std::to_string(rank.rank) +
                             ": " + e.what());
  }
}

}  // namespace sweep::comm::detail
