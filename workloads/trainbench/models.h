#pragma once
// trainbench's torch modules (internal; one of the few headers that include torch). A GPT stage holds
// the layers of one pipeline stage, sliced for tensor parallelism as in Megatron-LM; its weights are
// the single-rank model's, sliced, so that every layout starts from the same model. ResNet-18 runs
// data-parallel only.
#include <torch/torch.h>

#include "comm/communicator.h"
#include "trainbench/layout.h"
#include "trainbench/model_config.h"

namespace sweep::trainbench {

/// The tensor-parallel group of a rank (group nullptr: one slice), the clock its all-reduces add
/// their seconds to, and the precision they are sent in.
struct TensorGroup {
  comm::Communicator* group = nullptr;
  double* seconds = nullptr;
  torch::ScalarType wire = torch::kFloat;
};

/// Megatron's conjugate operators over the tensor group (one slice: both are identity).
/// copy_to_tensor_group: identity forward, all-reduce of the gradient backward.
/// reduce_from_tensor_group: all-reduce forward, identity backward.
torch::Tensor copy_to_tensor_group(const torch::Tensor& x, const TensorGroup& group);
torch::Tensor reduce_from_tensor_group(const torch::Tensor& x, const TensorGroup& group);

struct BlockImpl : torch::nn::Module {
  BlockImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, int layer, std::uint64_t seed);
  torch::Tensor forward(const torch::Tensor& x);
  torch::Tensor row_parallel(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) const;
  int local_heads, head_dim;
  torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
  torch::Tensor qkv_w, qkv_b, proj_w, proj_b, fc_w, fc_b, fc2_w, fc2_b;
  TensorGroup tensor_group;
};
TORCH_MODULE(Block);

struct GptStageImpl : torch::nn::Module {
  GptStageImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, std::uint64_t seed);
  /// First stage: tokens [b, T] (int64); later stages: hidden states [b, T, C]. The last stage returns
  /// logits [b, T, V], the others hidden states.
  torch::Tensor forward(const torch::Tensor& input);
  void set_tensor_group(const TensorGroup& group);
  bool first, last;
  torch::Tensor wte, wpe, head, lnf_w, lnf_b;  // head: wte itself on one stage, else the last stage's copy
  std::vector<Block> blocks;
};
TORCH_MODULE(GptStage);

/// ResNet-18's basic block: two 3x3 convolutions with batch norm, and a 1x1 projection shortcut
/// where the shape changes.
struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(std::int64_t in, std::int64_t out, std::int64_t stride);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, shortcut_conv{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr}, shortcut_bn{nullptr};
};
TORCH_MODULE(BasicBlock);

/// ResNet-18 on 3x32x32 images: [b, 3, 32, 32] -> logits [b, classes]. Weights are the default
/// initialisers under a generator seeded by `seed`, so every data-parallel rank starts equal.
struct ResNet18Impl : torch::nn::Module {
  ResNet18Impl(int classes, std::uint64_t seed);
  torch::Tensor forward(const torch::Tensor& images);
  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d stem_bn{nullptr};
  std::vector<BasicBlock> blocks;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ResNet18);

}  // namespace sweep::trainbench
