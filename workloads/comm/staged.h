#pragma once
// A CPU backend (mpi, gloo) carrying device buffers: a communicator whose buffers live on this rank's
// GPU, each call copying its input to pinned host memory, running the host backend's collective, and
// copying the output back, as torch.distributed's gloo does with CUDA tensors. A call completes before
// it returns, staging included, so what collbench times is what such a program waits for. CUDA-aware
// MPI (device pointers handed to MPI) is not used. Two files implement it, picked at build time:
// staged_cuda.cpp (the CUDA runtime) and staged_none.cpp.
#include <memory>

#include "comm/communicator.h"

namespace sweep::comm {

/// Wraps `host`, a connected CPU-backend communicator, so that its buffers live on CUDA device
/// `device` (made current by the caller, use_cuda_device). Throws std::runtime_error in a build
/// without CUDA.
std::unique_ptr<Communicator> staged_on_device(std::unique_ptr<Communicator> host, int device);

}  // namespace sweep::comm
