// The gloo backend in one process: each rank is a thread with its own gloo context, meeting through a
// real rendezvous directory over real TCP on loopback.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
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

}  // namespace

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
    CHECK(t.bytes[static_cast<std::size_t>(Collective::sendrecv)] == 40 + 24);
    CHECK(t.calls[static_cast<std::size_t>(Collective::sendrecv)] == 2);
    CHECK(t.total_bytes() == 800 + 800 + 1600 + 80 + 64);
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
