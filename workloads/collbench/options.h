#pragma once
// collbench's command line. Parsing is pure: it returns Options or throws UsageError with a message
// that names the option and what it expects.
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "comm/communicator.h"
#include "program/program.h"

namespace sweep::collbench {

enum class Headline { min, avg, max };

struct Options {
  comm::Collective op = comm::Collective::allreduce;
  comm::Backend backend = comm::Backend::mpi;
  /// --device cuda: buffers on this rank's GPU (nccl always; mpi and gloo staged through pinned host
  /// memory, comm/staged.h); --device cpu: host memory (mpi and gloo only). Default: cuda for nccl.
  bool on_device = false;
  comm::DType dtype = comm::DType::fp32;
  comm::ReduceOp redop = comm::ReduceOp::sum;
  std::uint64_t min_bytes = 32ull << 20;
  std::uint64_t max_bytes = 32ull << 20;
  std::uint64_t factor = 2;
  int warmup = 5;
  int iters = 20;
  bool inplace = false;  // also measure the in-place variant (the in-place columns)
  bool check = true;
  int root = 0;
  Headline headline = Headline::avg;
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  std::string rendezvous_dir;
  std::uint64_t params = 0;  // --params N: min = max = N elements of dtype
};

using program::HelpRequested;
using program::UsageError;

/// Parses argv (argv[0] is the program). Throws UsageError; `--help` and `--version` throw HelpRequested
/// with the text to print (the help, or "collbench <version>") as its message (program/program.h).
Options parse_options(const std::vector<std::string>& args);

std::string_view name_of(Headline headline);

}  // namespace sweep::collbench
