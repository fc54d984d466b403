// The data-parallel gradient all-reduce (see grad_sync.h). One of the few files that include torch.
#include "trainbench/grad_sync.h"

#include "trainbench/tensor_comm.h"

namespace sweep::trainbench {
namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

GradientSync::GradientSync(const std::vector<torch::Tensor>& params, comm::Communicator* group, double bucket_bytes,
                           int backwards_per_step, bool overlap, torch::ScalarType wire, torch::Device device)
    : group_(group && group->size() > 1 ? group : nullptr) {
  if (!group_) return;
  const auto fp32 = torch::TensorOptions().dtype(torch::kFloat).device(device);
  std::size_t limit = std::size_t{1} << 20, filled = 0;
  std::int64_t elements = 0;
  buckets_.emplace_back();
  for (auto it = params.rbegin(); it != params.rend(); ++it) {
    const auto bytes = static_cast<std::size_t>(it->numel()) * sizeof(float);
    if (filled > 0 && filled + bytes > limit) {
      buckets_.back().flat = torch::zeros({elements}, fp32);
      buckets_.emplace_back();
      filled = 0;
      elements = 0;
      limit = static_cast<std::size_t>(bucket_bytes);
    }
    Bucket& b = buckets_.back();
    b.params.push_back(*it);
    b.offsets.push_back(elements);
    b.expected += backwards_per_step;
    const std::size_t index = buckets_.size() - 1;
    const std::int64_t offset = elements;
    torch::Tensor param = *it;
    hooks_.emplace_back(param, param.register_hook([this, index, offset](const torch::Tensor& grad) {
      arrive(index, offset, grad);
    }));
    filled += bytes;
    elements += it->numel();
  }
  buckets_.back().flat = torch::zeros({elements}, fp32);
  const bool staged = device.is_cuda() && !group_->device_memory();
  for (auto& b : buckets_) {
    if (wire != torch::kFloat) b.wire = torch::empty({b.flat.numel()}, fp32.dtype(wire));
    if (staged) b.host = torch::empty({b.flat.numel()}, torch::TensorOptions().dtype(wire).pinned_memory(true));
  }
  if (overlap && group_->concurrent()) thread_ = std::thread([this] { loop(); });
}

GradientSync::~GradientSync() {
  for (auto& [param, handle] : hooks_) param.remove_hook(handle);
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
}

void GradientSync::begin_step() {
  std::lock_guard lock(mutex_);
  for (auto& b : buckets_) {
    b.flat.zero_();
    b.arrived = 0;
    b.full = false;
  }
  reduced_ = 0;
  busy_ = 0;
}

// Called by autograd, on the thread running backward, with a parameter's gradient of one pass.
void GradientSync::arrive(std::size_t bucket, std::int64_t offset, const torch::Tensor& grad) {
  Bucket& b = buckets_[bucket];
  b.flat.narrow(0, offset, grad.numel()).add_(grad.reshape(-1).to(torch::kFloat));
  std::lock_guard lock(mutex_);
  if (++b.arrived == b.expected) {
    b.full = true;
    changed_.notify_all();
  }
}

// The copies run on the default stream, after the kernels that filled the bucket; a copy to the host
// waits for them, and timed() orders nccl after them.
void GradientSync::reduce(Bucket& b) {
  torch::Tensor& sent = b.wire.defined() ? b.wire : b.flat;
  if (b.wire.defined()) b.wire.copy_(b.flat);
  if (b.host.defined()) b.host.copy_(sent);
  torch::Tensor& buffer = b.host.defined() ? b.host : sent;
  const double took = group_->timed([&] {
    group_->all_reduce(buffer.data_ptr(), buffer.data_ptr(), static_cast<std::size_t>(buffer.numel()),
                       comm_dtype(buffer.scalar_type()), comm::ReduceOp::avg);
  });
  if (b.host.defined()) sent.copy_(b.host);
  if (b.wire.defined()) b.flat.copy_(b.wire);
  std::lock_guard lock(mutex_);
  busy_ += took;
}

void GradientSync::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || (reduced_ < buckets_.size() && buckets_[reduced_].full); });
    if (stop_) return;
    Bucket& b = buckets_[reduced_];
    lock.unlock();
    try {
      reduce(b);
    } catch (...) {
      lock.lock();
      error_ = std::current_exception();
      reduced_ = buckets_.size();  // nothing more this step: finish() rethrows
      changed_.notify_all();
      continue;
    }
    lock.lock();
    ++reduced_;
    changed_.notify_all();
  }
}

void GradientSync::finish(CommClock& clock) {
  if (!group_) return;
  const auto start = std::chrono::steady_clock::now();
  if (thread_.joinable()) {
    std::unique_lock lock(mutex_);
    for (auto& b : buckets_) b.full = true;  // a parameter backward did not reach still has its zeros
    changed_.notify_all();
    changed_.wait(lock, [&] { return reduced_ == buckets_.size(); });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  } else {
    for (auto& b : buckets_) reduce(b);
  }
  clock.exposed += since(start);
  clock.seconds += busy_;
  for (auto& b : buckets_) {
    for (std::size_t i = 0; i < b.params.size(); ++i) {
      torch::Tensor& p = b.params[i];
      const auto piece = b.flat.narrow(0, b.offsets[i], p.numel()).view_as(p);
      if (p.grad().defined()) p.mutable_grad().copy_(piece);
      else p.mutable_grad() = piece.clone();
    }
  }
}

}  // namespace sweep::trainbench
