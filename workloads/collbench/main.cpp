// collbench: a collective-communication benchmark in the style of nccl-tests, on the mpi, gloo and
// nccl backends of workloads/comm. Exit codes: 0 all results correct, 1 runtime error (a missing
// peer, a failed allocation), 2 usage error, 3 wrong results.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "collbench/measure.h"
#include "collbench/options.h"
#include "collbench/output.h"
#include "collbench/pattern.h"
#include "comm/communicator.h"
#include "comm/device.h"
#include "comm/staged.h"
#include "program/program.h"

#ifndef SWEEP_VERSION
#define SWEEP_VERSION "0"
#endif

namespace {

using namespace sweep;

// Errors end the process at once (program::fail): an MPI rank that returned normally would wait in
// MPI_Finalize for peers that wait for it; exiting makes the launcher stop the others.
[[noreturn]] void fail(int code, const std::string& who, const std::string& message) {
  program::fail("collbench", code, who, message);
}

// A GPU run on a node without a usable GPU ends here, before any rank waits for its peers.
void check_gpu(const collbench::Options& o) {
  if (!o.on_device || !comm::compiled_in(o.backend)) return;  // connect() says "not built"
  const std::string who = o.backend == comm::Backend::nccl ? "--backend nccl" : "--device cuda";
  if (const comm::CudaDevices devices = comm::cuda_devices(); devices.count == 0)
    fail(1, "error: ", who + " needs a CUDA GPU, but " + devices.problem);
}

// --device cuda on mpi or gloo: the connected host backend, its buffers moved to this rank's GPU.
std::unique_ptr<comm::Communicator> on_device(std::unique_ptr<comm::Communicator> host, const comm::RankInfo& rank,
                                              std::string& device) {
  const int gpu = comm::use_cuda_device(rank.local_rank, "collbench --device cuda");
  device = "cuda:" + std::to_string(gpu) + (host->device_memory() ? "" : " through host memory");
  return host->device_memory() ? std::move(host) : comm::staged_on_device(std::move(host), gpu);
}

int run(const collbench::Options& o, const comm::RankInfo& rank) {
  check_gpu(o);
  comm::Options copts;
  copts.timeout = o.timeout;
  copts.rendezvous_dir = o.rendezvous_dir;
  std::unique_ptr<comm::Communicator> comm;
  std::string device = "cpu";
  try {
    comm = comm::connect(o.backend, rank, copts);
    if (o.on_device) comm = on_device(std::move(comm), rank, device);
  } catch (const std::exception& e) {
    fail(1, "rank " + std::to_string(rank.rank) + ": error: ", e.what());
  }
  try {
    const collbench::Case sample{o.op, o.dtype, o.redop, comm->size(), 0, o.root,
                                 collbench::shape_for(o.op, o.max_bytes, o.dtype, comm->size())};
    if (o.root < 0 || o.root >= comm->size())
      fail(2, "error: ", "--root " + std::to_string(o.root) + " is outside [0, " + std::to_string(comm->size()) + ")");
    const collbench::RunInfo info{SWEEP_VERSION, comm->library_version(), comm->hosts(), comm->size(), rank.source,
                                  collbench::checkable(sample), device, comm->clock()};
    if (comm->rank() == 0) std::fputs(collbench::header(o, info).c_str(), stdout);
    const auto rows = collbench::run_sizes(*comm, o, stdout);
    if (comm->rank() == 0) std::fputs(collbench::summary(o, comm->size(), rows).c_str(), stdout);
    std::fflush(stdout);
    for (const auto& row : rows)
      if ((row.out_of_place.wrong && *row.out_of_place.wrong) || (row.in_place && row.in_place->wrong && *row.in_place->wrong))
        fail(3, "rank " + std::to_string(comm->rank()) + ": ", "wrong results (see #wrong)");
  } catch (const std::exception& e) {
    fail(1, "rank " + std::to_string(comm->rank()) + ": error: ", e.what());
  }
  comm.reset();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  collbench::Options options;
  try {
    options = collbench::parse_options(std::vector<std::string>(argv, argv + argc));
  } catch (const collbench::HelpRequested& help) {
    std::fputs(help.what(), stdout);
    return 0;
  } catch (const collbench::UsageError& e) {
    fail(2, "error: ", e.what());
  }
  comm::RankInfo rank;
  try {
    rank = comm::discover_rank_from_environment();
  } catch (const std::exception& e) {
    fail(2, "error: ", e.what());
  }
  return run(options, rank);
}
