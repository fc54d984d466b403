// AdamW with multi-tensor kernels (see adamw.h). One of the few files that include torch.
#include "trainbench/adamw.h"

#include <cmath>

namespace sweep::trainbench {

namespace {

// libtorch 2 has the fused multi-tensor AdamW kernel (CUDA); Debian's libtorch 1.13 does not.
constexpr bool kFusedKernel = TORCH_VERSION_MAJOR >= 2;

}  // namespace

ForeachAdamW::ForeachAdamW(std::vector<torch::Tensor> params, double lr, double weight_decay)
    : params_(std::move(params)), lr_(lr), weight_decay_(weight_decay) {
  const bool fused = kFusedKernel && !params_.empty() && params_.front().is_cuda();
  for (const auto& p : params_) {
    exp_avg_.push_back(torch::zeros_like(p));
    exp_avg_sq_.push_back(torch::zeros_like(p));
    if (fused) steps_on_device_.push_back(torch::zeros({}, p.options().dtype(torch::kFloat)));
  }
}

void ForeachAdamW::zero_grad() {
  for (auto& p : params_) p.mutable_grad() = torch::Tensor();
}

void ForeachAdamW::step() {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> p, g, m, v, counts;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].grad().defined()) continue;
    p.push_back(params_[i]);
    g.push_back(params_[i].grad());
    m.push_back(exp_avg_[i]);
    v.push_back(exp_avg_sq_[i]);
    if (!steps_on_device_.empty()) counts.push_back(steps_on_device_[i]);
  }
  if (p.empty()) return;
  ++steps_;
  if (counts.empty()) return foreach_step(p, g, m, v);
#if TORCH_VERSION_MAJOR >= 2
  // As torch.optim.AdamW(fused=True): the counts first, then one kernel that reads them.
  at::_foreach_add_(counts, 1.0);
  at::_fused_adamw_(p, g, m, v, {}, counts, lr_, beta1_, beta2_, weight_decay_, eps_, /*amsgrad=*/false,
                    /*maximize=*/false);
#endif
}

void ForeachAdamW::foreach_step(std::vector<torch::Tensor>& p, std::vector<torch::Tensor>& g,
                                std::vector<torch::Tensor>& m, std::vector<torch::Tensor>& v) const {
  const double correction1 = 1 - std::pow(beta1_, static_cast<double>(steps_));
  const double correction2 = 1 - std::pow(beta2_, static_cast<double>(steps_));
  if (weight_decay_ != 0) at::_foreach_mul_(p, 1 - lr_ * weight_decay_);
  at::_foreach_mul_(m, beta1_);
  at::_foreach_add_(m, g, 1 - beta1_);
  at::_foreach_mul_(v, beta2_);
  at::_foreach_addcmul_(v, g, g, 1 - beta2_);
  std::vector<torch::Tensor> denom = at::_foreach_sqrt(v);
  at::_foreach_div_(denom, std::sqrt(correction2));
  at::_foreach_add_(denom, eps_);
  at::_foreach_addcdiv_(p, m, denom, -lr_ / correction1);
}

}  // namespace sweep::trainbench
