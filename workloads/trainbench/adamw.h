#pragma once
// trainbench's optimizer (internal; includes torch): AdamW over all parameters at once with libtorch's
// multi-tensor (_foreach_) kernels, as PyTorch's default AdamW on CUDA. A step is a few kernels for the
// whole model instead of several per parameter, which on a GPU are launch-bound (GPT-2 small: about
// 1,500 launches a step). The update is libtorch's torch::optim::AdamW's, operation for operation:
// decoupled weight decay, then the bias-corrected moments.
#include <torch/torch.h>

#include <vector>

namespace sweep::trainbench {

class ForeachAdamW {
 public:
  ForeachAdamW(std::vector<torch::Tensor> params, double lr, double weight_decay);
  /// Every gradient to none (undefined), as PyTorch's zero_grad(set_to_none=True): no kernels.
  void zero_grad();
  /// One update of every parameter that has a gradient.
  void step();

 private:
  std::vector<torch::Tensor> params_, exp_avg_, exp_avg_sq_;
  double lr_, weight_decay_;
  double beta1_ = 0.9, beta2_ = 0.999, eps_ = 1e-8;  // torch::optim::AdamW's defaults
  long steps_ = 0;
};

}  // namespace sweep::trainbench
