#pragma once
// The backends' entry points (internal to comm/). Each lives in its own file and is the only user of
// its library: mpi_backend.cpp (OpenMPI), gloo_backend.cpp (libgloo), nccl_backend.cpp (NCCL, CUDA).
#include <memory>

#include "comm/communicator.h"

namespace sweep::comm::detail {

// Each backend is compiled in when its library is (SWEEP_WITH_MPI and SWEEP_WITH_GLOO in every build
// of sweep; only a build of the bundled programs alone may leave them out).
std::unique_ptr<Communicator> connect_mpi(const RankInfo& rank, const Options& options);
std::unique_ptr<Communicator> connect_gloo(const RankInfo& rank, const Options& options);
#ifdef SWEEP_WITH_NCCL
std::unique_ptr<Communicator> connect_nccl(const RankInfo& rank, const Options& options);
#endif

/// Host memory, 64-byte aligned, zero-filled.
class HostBuffer final : public Buffer {
 public:
  explicit HostBuffer(std::size_t bytes);
  ~HostBuffer() override;
  void upload(const void* host, std::size_t bytes) override;
  void download(void* host, std::size_t bytes) const override;
};

}  // namespace sweep::comm::detail
