#pragma once
// Tensors through a communicator (internal; includes torch): the one mapping of torch's dtypes onto
// the communicator's, and the staging that lets a CPU backend (mpi, gloo) carry tensors of a GPU.
#include <torch/torch.h>

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "comm/communicator.h"

namespace sweep::trainbench {

inline constexpr std::array<std::pair<torch::ScalarType, comm::DType>, 5> kCommTypes{{
    {torch::kFloat, comm::DType::fp32}, {torch::kBFloat16, comm::DType::bf16}, {torch::kHalf, comm::DType::fp16},
    {torch::kDouble, comm::DType::fp64}, {torch::kInt, comm::DType::int32}}};

/// The communicator's dtype of a tensor's; throws std::runtime_error for one it cannot carry.
inline comm::DType comm_dtype(torch::ScalarType type) {
  for (const auto& [t, d] : kCommTypes)
    if (t == type) return d;
  throw std::runtime_error(std::string("the communicators cannot carry tensors of ") + c10::toString(type));
}

/// Where `group` reads and writes tensors that live on `device`: the device itself for nccl, the host
/// for the CPU backends.
inline torch::Device comm_device(const comm::Communicator& group, const torch::Device& device) {
  return group.device_memory() ? device : torch::Device(torch::kCPU);
}

/// `t`, contiguous, where `group` can read it: a host copy of a device tensor for a CPU backend
/// (the copy waits for the work that wrote `t`), else `t` itself when already contiguous.
inline torch::Tensor for_group(const torch::Tensor& t, const comm::Communicator& group) {
  return t.to(comm_device(group, t.device())).contiguous();
}

}  // namespace sweep::trainbench
