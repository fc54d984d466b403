// The gloo backend in one process: each rank is a thread with its own gloo context, meeting through a
// real rendezvous directory over real TCP on loopback.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "comm/communicator.h"

using namespace sweep::comm;

namespace {

// Runs `body(comm)` on `ranks` gloo ranks at once and returns when all are done.
void on_gloo_ranks(int ranks, const std::function<void(Communicator&)>& body) {
  static int launch = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("sweep-comm-test-" + std::to_string(::getpid()));
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", std::to_string(++launch).c_str(), 1);
  std::vector<std::thread> threads;
  std::vector<std::string> errors(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      try {
        RankInfo info;
        info.rank = r;
        info.world_size = ranks;
        info.source = "torchrun";
        Options options;
        options.rendezvous_dir = dir.string();
        options.timeout = std::chrono::seconds(20);
        auto comm = connect(Backend::gloo, info, options);
        body(*comm);
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors) CHECK(e.empty());
  std::filesystem::remove_all(dir);
}

// A stand-in for a backend whose collectives take device memory only (as nccl's do): every collective
// fails, so a host array handed to one is caught. host_all_gather() plays the other ranks from a table.
class DeviceOnly final : public Communicator {
 public:
  DeviceOnly(int rank, std::vector<std::int32_t> colors_and_keys)
      : Communicator(rank, static_cast<int>(colors_and_keys.size() / 2)), table_(std::move(colors_and_keys)) {}
  std::string_view backend() const override { return "device-only"; }
  std::string library_version() const override { return "none"; }
  std::vector<int> split_members;  // what do_split was given

 protected:
  [[noreturn]] static void refuse() { throw std::runtime_error("a collective was handed host memory"); }
  void do_all_reduce(const void*, void*, std::size_t, DType, ReduceOp) override { refuse(); }
  void do_all_gather(const void*, void*, std::size_t, DType) override { refuse(); }
  void do_reduce_scatter(const void*, void*, std::size_t, DType, ReduceOp) override { refuse(); }
  void do_broadcast(const void*, void*, std::size_t, DType, int) override { refuse(); }
  void do_all_to_all(const void*, void*, std::size_t, DType) override { refuse(); }
  void do_send_recv(const void*, int, void*, int, std::size_t, DType) override { refuse(); }
  void do_send(const void*, std::size_t, DType, int) override { refuse(); }
  void do_recv(void*, std::size_t, DType, int) override { refuse(); }
  void do_barrier() override { refuse(); }
  void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) override {
    REQUIRE(count == 2);
    std::copy(table_.begin(), table_.end(), out);
    std::copy(in, in + count, out + 2 * rank());  // this rank's own entry comes from the caller
  }
  std::unique_ptr<Communicator> do_split(int, const std::vector<int>& members) override {
    split_members = members;
    const auto me = std::find(members.begin(), members.end(), rank()) - members.begin();
    return std::make_unique<DeviceOnly>(static_cast<int>(me), std::vector<std::int32_t>(2 * members.size(), 0));
  }

 private:
  std::vector<std::int32_t> table_;
};

}  // namespace

TEST_CASE("split exchanges colors and keys host-side, never through a collective, and counts it") {
  // Ranks 0..3 as (color, key): rank 1 is this one and passes (7, 2); the table's own entry is ignored.
  DeviceOnly world(1, {7, 9, -1, -1, 8, 0, 7, 1});
  const auto group = world.split(7, 2);
  CHECK(world.split_members == std::vector<int>{3, 1, 0});  // keys 1, 2, 9
  CHECK(group->rank() == 1);
  CHECK(group->size() == 3);
  const Traffic& t = world.traffic();
  CHECK(t.calls[static_cast<std::size_t>(Collective::allgather)] == 1);
  CHECK(t.bytes[static_cast<std::size_t>(Collective::allgather)] == 2 * sizeof(std::int32_t));
  CHECK(t.total_bytes() == 2 * sizeof(std::int32_t));
  CHECK(group->traffic().total_bytes() == 0);
}

TEST_CASE("gloo rings reduce counts that do not divide by the rank count, in place and out of place") {
  for (const std::size_t count : {1u, 2u, 7u, 1000003u}) {
    on_gloo_ranks(3, [&](Communicator& comm) {
      std::vector<float> in(count), out(count, -1);
      for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<float>((i % 7) + static_cast<std::size_t>(comm.rank()));
      comm.all_reduce(in.data(), out.data(), count, DType::fp32, ReduceOp::sum);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < count; ++i) wrong += out[i] != static_cast<float>(3 * (i % 7) + 3);
      CHECK(wrong == 0);
      comm.all_reduce(in.data(), in.data(), count, DType::fp32, ReduceOp::max);
      for (std::size_t i = 0; i < count; ++i) wrong += in[i] != static_cast<float>((i % 7) + 2);
      CHECK(wrong == 0);
    });
  }
}

TEST_CASE("every call counts the bytes it hands to the backend") {
  on_gloo_ranks(2, [](Communicator& comm) {
    std::vector<double> a(100, 1.0), b(200, 0.0);
    comm.all_reduce(a.data(), b.data(), 100, DType::fp64, ReduceOp::sum);
    comm.all_gather(a.data(), b.data(), 100, DType::fp64);
    comm.reduce_scatter(b.data(), a.data(), 100, DType::fp64, ReduceOp::sum);
    comm.broadcast(a.data(), a.data(), 10, DType::fp64, 1);
    comm.send_recv(a.data(), 1 - comm.rank(), b.data(), 1 - comm.rank(), 5, DType::fp64);
    if (comm.rank() == 0) comm.send(a.data(), 3, DType::fp64, 1);
    else comm.recv(b.data(), 3, DType::fp64, 0);
    const Traffic& t = comm.traffic();
    CHECK(t.bytes[static_cast<std::size_t>(Collective::allreduce)] == 800);
    CHECK(t.bytes[static_cast<std::size_t>(Collective::allgather)] == 800);
    CHECK(t.bytes[static_cast<std::size_t>(Collective::reducescatter)] == 1600);  // two blocks of 100
    CHECK(t.bytes[static_cast<std::size_t>(Collective::broadcast)] == 80);
    CHECK(t.bytes[static_cast<std::size_t>(Collective::sendrecv)] == 2 * 40 + 24);  // sent and received
    CHECK(t.calls[static_cast<std::size_t>(Collective::sendrecv)] == 2);
    CHECK(t.total_bytes() == 800 + 800 + 1600 + 80 + 104);
    CHECK_THROWS_WITH(comm.send(a.data(), 1, DType::fp64, 2), "send destination rank 2 is outside [0, 2)");
  });
}

TEST_CASE("asking for a backend that is not built names what it needs") {
  if (compiled_in(Backend::nccl)) {  // the path below is for CPU-only builds
    WARN("this build has NCCL: the not-built error is not reachable here");
    return;
  }
  RankInfo one;
  CHECK_THROWS_WITH(connect(Backend::nccl, one, Options{}), Catch::StartsWith("backend \"nccl\" is not available in this build"));
}

TEST_CASE("split orders a group's members by key, then by rank") {
  // colors and keys of ranks 0..4: (0,5) (1,0) (0,1) (1,0) (0,1)
  const std::vector<int> colors_and_keys{0, 5, 1, 0, 0, 1, 1, 0, 0, 1};
  CHECK(Communicator::members(colors_and_keys, 0) == std::vector<int>{2, 4, 0});
  CHECK(Communicator::members(colors_and_keys, 1) == std::vector<int>{1, 3});
  CHECK(Communicator::members(colors_and_keys, 7).empty());
}

TEST_CASE("split groups reduce, exchange and split again among their own members only") {
  constexpr int kRanks = 4;
  struct Seen {
    int group_rank = -1, group_size = -1, sum = -1, from_peer = -1, single_size = -1;
    std::size_t hosts = 0;
    std::uint64_t group_bytes = 0;
  };
  std::vector<Seen> seen(kRanks);
  on_gloo_ranks(kRanks, [&](Communicator& comm) {
    // Odd and even ranks, each group ordered by descending world rank.
    auto group = comm.split(comm.rank() % 2, -comm.rank());
    Seen& s = seen[static_cast<std::size_t>(comm.rank())];
    s.group_rank = group->rank();
    s.group_size = group->size();
    s.hosts = group->hosts().size();
    std::int32_t mine = comm.rank() + 1, sum = 0;
    group->all_reduce(&mine, &sum, 1, DType::int32, ReduceOp::sum);
    s.sum = sum;
    std::int32_t got = -1;
    group->send_recv(&mine, 1 - group->rank(), &got, 1 - group->rank(), 1, DType::int32);
    s.from_peer = got;
    s.group_bytes = group->traffic().total_bytes();
    s.single_size = group->split(group->rank(), 0)->size();
    comm.barrier();
  });
  for (int r = 0; r < kRanks; ++r) {
    const Seen& s = seen[static_cast<std::size_t>(r)];
    INFO("world rank " << r);
    CHECK(s.group_size == 2);
    CHECK(s.group_rank == (r < 2 ? 1 : 0));  // ranks 2 and 3 come first (lower key)
    CHECK(s.hosts == 2);
    CHECK(s.sum == (r % 2 == 0 ? 1 + 3 : 2 + 4));
    CHECK(s.from_peer == (r < 2 ? r + 2 : r - 2) + 1);
    CHECK(s.group_bytes == 3 * sizeof(std::int32_t));  // all-reduce, send_recv both ways
    CHECK(s.single_size == 1);
  }
}
