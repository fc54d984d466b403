#pragma once
// trainbench's torch modules (internal; one of the few headers that include torch). A GPT stage holds
// the layers of one pipeline stage, sliced for tensor parallelism as in Megatron-LM; its weights are
// the single-rank model's, sliced, so that every layout starts from the same model.
#include <torch/torch.h>

#include "comm/communicator.h"
#include "trainbench/layout.h"
#include "trainbench/model_config.h"

namespace sweep::trainbench {

/// Megatron's conjugate operators over the tensor group (nullptr: one slice, both are identity).
/// copy_to_tensor_group: identity forward, all-reduce of the gradient backward.
/// reduce_from_tensor_group: all-reduce forward, identity backward.
/// `seconds` accumulates the time spent in the all-reduces.
torch::Tensor copy_to_tensor_group(const torch::Tensor& x, comm::Communicator* group, double* seconds);
torch::Tensor reduce_from_tensor_group(const torch::Tensor& x, comm::Communicator* group, double* seconds);

struct BlockImpl : torch::nn::Module {
  BlockImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, int layer, std::uint64_t seed);
  torch::Tensor forward(const torch::Tensor& x);
  int local_heads, head_dim;
  torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
  torch::Tensor qkv_w, qkv_b, proj_w, proj_b, fc_w, fc_b, fc2_w, fc2_b;
  comm::Communicator* tensor_group = nullptr;
  double* comm_seconds = nullptr;
};
TORCH_MODULE(Block);

struct GptStageImpl : torch::nn::Module {
  GptStageImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, std::uint64_t seed);
  /// First stage: tokens [b, T] (int64); later stages: hidden states [b, T, C]. The last stage returns
  /// logits [b, T, V], the others hidden states.
  torch::Tensor forward(const torch::Tensor& input);
  void set_tensor_group(comm::Communicator* group, double* seconds);
  bool first, last;
  torch::Tensor wte, wpe, head, lnf_w, lnf_b;  // head: wte itself on one stage, else the last stage's copy
  std::vector<Block> blocks;
};
TORCH_MODULE(GptStage);

}  // namespace sweep::trainbench
