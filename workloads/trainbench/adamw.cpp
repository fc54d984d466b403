// AdamW with multi-tensor kernels (see adamw.h). One of the few files that include torch.
#include "trainbench/adamw.h"

#include <cmath>

namespace sweep::trainbench {

ForeachAdamW::ForeachAdamW(std::vector<torch::Tensor> params, double lr, double weight_decay)
    : params_(std::move(params)), lr_(lr), weight_decay_(weight_decay) {
  for (const auto& p : params_) {
    exp_avg_.push_back(torch::zeros_like(p));
    exp_avg_sq_.push_back(torch::zeros_like(p));
  }
}

void ForeachAdamW::zero_grad() {
  for (auto& p : params_) p.mutable_grad() = torch::Tensor();
}

void ForeachAdamW::step() {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> p, g, m, v;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].grad().defined()) continue;
    p.push_back(params_[i]);
    g.push_back(params_[i].grad());
    m.push_back(exp_avg_[i]);
    v.push_back(exp_avg_sq_[i]);
  }
  if (p.empty()) return;
  ++steps_;
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
