#pragma once
// The training loop behind a torch-free interface: main.cpp and the output stay free of libtorch,
// whose headers cost 18 s and 1 GB per file to compile.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/communicator.h"
#include "trainbench/options.h"

namespace sweep::trainbench {

/// The communicators of a layout, split from the world by every rank together.
struct Groups {
  comm::Communicator& world;
  std::unique_ptr<comm::Communicator> data;       // same tensor slice and stage
  std::unique_ptr<comm::Communicator> tensor;     // same replica and stage
  std::unique_ptr<comm::Communicator> embedding;  // first and last stage of a replica's slice (P > 1)
};
Groups make_groups(comm::Communicator& world, const Layout& layout);

/// What one rank measured; the caller combines ranks.
struct RankResult {
  std::vector<double> step_seconds;   // every step, warm-up included
  std::vector<double> epoch_seconds;  // every epoch
  std::vector<double> losses;         // per step; meaningful on a last stage only
  std::int64_t parameters = 0;        // held by this rank
  std::uint64_t parameter_hash = 0;   // FNV-1a of the final parameters' bytes, in registration order
  double comm_bytes_per_step = 0;     // counted by the communicators, measured steps only
  double comm_seconds_per_step = 0;   // time inside communication calls, measured steps only
  double exposed_comm_seconds_per_step = 0;  // the part the computation waited for
  double peak_memory_mib = 0;         // max RSS
  double gpu_peak_allocated_mib = 0;  // the CUDA caching allocator's peaks (0 on the CPU)
  double gpu_peak_reserved_mib = 0;
  std::string device;                 // "cpu", or "cuda:0 (NVIDIA H100 80GB HBM3)"
  std::string device_name;            // the GPU's name; "" on the CPU
  bool overlapped = false;            // the data-parallel all-reduce ran during backward
  std::string torch_version;
};

/// The backend to connect with: the options' own, or for --backend auto nccl where this rank will
/// train on a GPU (--device cuda, or auto with a CUDA libtorch that sees one) and the build has nccl,
/// else gloo.
comm::Backend chosen_backend(const Options& options);

/// Why this process cannot train on the device the options ask for (--device cuda, or the nccl
/// backend, which needs one), as one line naming what is missing; "" when it can. Asked before
/// connecting, so that a node without a usable GPU fails at once instead of waiting for its peers.
std::string device_problem(const Options& options);

/// Trains as the options say, on the CPU or on GPU `local_rank` mod the visible GPUs (--device; auto
/// takes a GPU when libtorch has CUDA and sees one). Throws std::runtime_error (with what is wrong) for
/// a failed collective, a backend that cannot carry the tensors of this build, or unreadable data.
RankResult train(const Options& options, Groups& groups, int local_rank);

}  // namespace sweep::trainbench
