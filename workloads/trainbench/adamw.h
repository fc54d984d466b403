#pragma once
// trainbench's optimizer (internal; includes torch): AdamW over all parameters at once with libtorch's
// multi-tensor (_foreach_) kernels, as PyTorch's default AdamW on CUDA. A step is a few kernels for the
// whole model instead of several per parameter, which on a GPU are launch-bound (GPT-2 small: about
// 1,500 launches a step). The update is libtorch's torch::optim::AdamW's, operation for operation:
// decoupled weight decay, then the bias-corrected moments. On CUDA with libtorch 2 the same update is
// one fused kernel over all parameters (at::_fused_adamw_, PyTorch's AdamW(fused=True)): one read and
// write of weights, gradients and moments instead of one per operation.
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
  void foreach_step(std::vector<torch::Tensor>& p, std::vector<torch::Tensor>& g, std::vector<torch::Tensor>& m,
                    std::vector<torch::Tensor>& v) const;

  std::vector<torch::Tensor> params_, exp_avg_, exp_avg_sq_;
  std::vector<torch::Tensor> steps_on_device_;  // the fused kernel's step counts (fp32 on the device), one a parameter; empty: foreach
  double lr_, weight_decay_;
  double beta1_ = 0.9, beta2_ = 0.999, eps_ = 1e-8;  // torch::optim::AdamW's defaults
  long steps_ = 0;
};

}  // namespace sweep::trainbench
