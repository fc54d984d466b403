// trainbench's training loop: data parallelism by bucketed gradient all-reduce (grad_sync.cpp), tensor
// parallelism inside the GPT stage (gpt.cpp), pipeline parallelism by GPipe or 1F1B over point-to-point
// messages between neighbouring stages; ResNet-18 data-parallel. One of the few files that include torch.
#include "trainbench/engine.h"

#include <sys/resource.h>

#include <chrono>
#include <deque>
#include <optional>
#include <stdexcept>
#include <thread>

#include <ATen/autocast_mode.h>

#include "comm/device.h"
#include "trainbench/adamw.h"
#include "trainbench/cifar10.h"
#include "trainbench/cuda_memory.h"
#include "trainbench/data.h"
#include "trainbench/grad_sync.h"
#include "trainbench/models.h"
#include "trainbench/tensor_comm.h"

namespace sweep::trainbench {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::uint64_t fnv1a(const std::vector<torch::Tensor>& tensors) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& t : tensors) {
    const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
    const auto* bytes = static_cast<const unsigned char*>(c.data_ptr());
    for (std::size_t i = 0; i < static_cast<std::size_t>(c.nbytes()); ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  }
  return h;
}

double peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

std::uint64_t traffic(const Groups& g) {
  std::uint64_t bytes = g.world.traffic().total_bytes();
  for (const auto* c : {g.data.get(), g.tensor.get(), g.embedding.get()})
    if (c) bytes += c->traffic().total_bytes();
  return bytes;
}

torch::ScalarType wire_of(Precision p) { return p == Precision::bf16 ? torch::kBFloat16 : torch::kFloat; }

// The model of one rank, as the training loop sees it.
class Trainer {
 public:
  virtual ~Trainer() = default;
  virtual std::vector<torch::Tensor> parameters() = 0;
  /// Backward passes per step that reach each parameter (the micro-batches).
  virtual int backwards_per_step() const = 0;
  /// One optimizer step's forward and backward; returns the loss as a tensor on the device, read after
  /// the optimizer has been enqueued so that the step runs without waiting for it (undefined on a
  /// stage without the loss); adds the time of blocking messages to `clock`.
  virtual torch::Tensor step(int step_index, CommClock& clock) = 0;
  /// After the data-parallel all-reduce, before the optimizer.
  virtual void after_sync(CommClock& /*clock*/) {}
  /// Seconds inside communication not reported through a CommClock (tensor-parallel all-reduces).
  virtual double inner_comm_seconds() const { return 0; }
};

// The tied embedding on P > 1: the first stage's wte and the last stage's copy get the sum of both
// gradients, so they stay equal; sent in `wire` precision (--grad-dtype), summed and applied in fp32.
void sync_embedding(GptStage& stage, comm::Communicator* group, torch::ScalarType wire, CommClock& clock) {
  if (!group || group->size() < 2) return;
  torch::Tensor& weight = stage->first ? stage->wte : stage->head;
  torch::Tensor grad = for_group(weight.grad().to(wire), *group);
  clock.blocking(*group, [&] {
    group->all_reduce(grad.data_ptr(), grad.data_ptr(), static_cast<std::size_t>(grad.numel()), comm_dtype(wire),
                      comm::ReduceOp::sum);
  });
  weight.mutable_grad().copy_(grad);
}

// One GPT rank: its stage, its data, its neighbours.
class GptRank final : public Trainer {
 public:
  GptRank(const Options& o, Groups& g, torch::Device device)
      : o_(o), g_(g), c_(coordinates(o.layout, g.world.rank())), stage_(o.model, o.layout, c_, o.seed),
        wire_(wire_of(o.dtype)), device_(device) {
    stage_->to(device);
    stage_->set_tensor_group({g.tensor.get(), &tensor_seconds_, wire_});
    if (o.data.format == DataFormat::tokens) tokens_ = load_tokens(o.data.path, o.model.vocab, o.model.seq);
    if (o.data.format == DataFormat::uint16) tokens_ = load_tokens_uint16(o.data.path, o.model.vocab, o.model.seq);
  }
  std::vector<torch::Tensor> parameters() override { return stage_->parameters(); }
  int backwards_per_step() const override { return o_.microbatches; }
  void after_sync(CommClock& clock) override {
    sync_embedding(stage_, g_.embedding.get(), wire_of(o_.grad_dtype), clock);
  }
  double inner_comm_seconds() const override { return tensor_seconds_; }

  torch::Tensor step(int step_index, CommClock& clock) override {
    const int m = o_.microbatches;
    const auto sequences = batch(step_index);
    const auto length = o_.model.seq + 1;
    auto all = torch::from_blob(const_cast<std::int64_t*>(sequences.data()), {o_.batch, length}, torch::kLong).to(device_);
    inputs_ = all.narrow(1, 0, o_.model.seq).chunk(m, 0);
    targets_ = all.narrow(1, 1, o_.model.seq).chunk(m, 0);
    loss_ = torch::Tensor();
    if (o_.schedule == Schedule::gpipe) gpipe(clock);
    else one_f_one_b(clock);
    return loss_;
  }

 private:
  std::vector<std::int64_t> batch(int step_index) {
    const auto first = first_sample(step_index, o_.layout.dp, c_.dp, o_.batch);
    return tokens_.empty() ? synthetic_tokens(o_.seed, first, o_.batch, o_.model.seq, o_.model.vocab)
                           : file_tokens(tokens_, first, o_.batch, o_.model.seq);
  }
  int neighbour(int delta) const {
    Coordinates n = c_;
    n.pp += delta;
    return rank_of(o_.layout, n);
  }
  std::vector<std::int64_t> activation_shape() const {
    return {o_.batch / o_.microbatches, o_.model.seq, o_.model.width};
  }
  // Activations and their gradients travel in the wire precision, through host memory for a CPU
  // backend, and are computed on in fp32 on this rank's device.
  torch::Tensor outgoing(const torch::Tensor& t) const { return for_group(t.detach().to(wire_), g_.world); }
  torch::Tensor incoming() const {
    return torch::empty(activation_shape(), torch::TensorOptions().dtype(wire_).device(comm_device(g_.world, device_)));
  }
  torch::Tensor computed(const torch::Tensor& t) const { return t.to(device_, torch::kFloat); }
  std::size_t count(const torch::Tensor& t) const { return static_cast<std::size_t>(t.numel()); }
  comm::DType dtype() const { return comm_dtype(wire_); }

  // Stage input for micro-batch i: tokens on the first stage, else received from the previous one.
  torch::Tensor recv_forward(int i, CommClock& clock) {
    if (stage_->first) return inputs_[static_cast<std::size_t>(i)];
    torch::Tensor x = incoming();
    clock.blocking(g_.world, [&] { g_.world.recv(x.data_ptr(), count(x), dtype(), neighbour(-1)); });
    return computed(x).requires_grad_(true);
  }
  void send_forward(const torch::Tensor& y, CommClock& clock) {
    if (stage_->last) return;
    const torch::Tensor out = outgoing(y);
    clock.blocking(g_.world, [&] { g_.world.send(out.data_ptr(), count(out), dtype(), neighbour(1)); });
  }
  torch::Tensor recv_backward(CommClock& clock) {
    torch::Tensor grad = incoming();
    clock.blocking(g_.world, [&] { g_.world.recv(grad.data_ptr(), count(grad), dtype(), neighbour(1)); });
    return computed(grad);
  }
  void send_backward(const torch::Tensor& x, CommClock& clock) {
    if (stage_->first) return;
    const torch::Tensor grad = outgoing(x.grad());
    clock.blocking(g_.world, [&] { g_.world.send(grad.data_ptr(), count(grad), dtype(), neighbour(-1)); });
  }
  // Sends this stage's output forward while receiving its gradient (1F1B's steady state).
  torch::Tensor send_forward_recv_backward(const torch::Tensor& y, CommClock& clock) {
    const torch::Tensor out = outgoing(y);
    torch::Tensor grad = incoming();
    clock.blocking(g_.world, [&] { g_.world.send_recv(out.data_ptr(), neighbour(1), grad.data_ptr(), neighbour(1), count(out), dtype()); });
    return computed(grad);
  }
  // Sends an input gradient back while receiving the next micro-batch's input.
  torch::Tensor send_backward_recv_forward(const torch::Tensor& x, CommClock& clock) {
    const torch::Tensor grad = outgoing(x.grad());
    torch::Tensor next = incoming();
    clock.blocking(g_.world, [&] { g_.world.send_recv(grad.data_ptr(), neighbour(-1), next.data_ptr(), neighbour(-1), count(grad), dtype()); });
    return computed(next).requires_grad_(true);
  }
  torch::Tensor forward(int i, const torch::Tensor& x) {
    torch::Tensor y = stage_->forward(x);
    if (!stage_->last) return y;
    // The loss from fp32 logits, as Megatron-LM and the DDP peer (bench/torch_ddp_gpt_cuda.py): under
    // autocast libtorch's cross entropy would otherwise take bf16 log-probabilities.
    auto loss = torch::nn::functional::cross_entropy(y.reshape({-1, y.size(-1)}).to(torch::kFloat),
                                                     targets_[static_cast<std::size_t>(i)].reshape(-1)) /
                o_.microbatches;
    loss_ = loss_.defined() ? loss_ + loss.detach() : loss.detach();
    return loss;
  }
  // Backward of a stage output: the loss on the last stage, else with the gradient from the next.
  void backward(const torch::Tensor& y, const torch::Tensor& grad) {
    if (stage_->last) y.backward();
    else y.backward(grad);
  }

  void gpipe(CommClock& clock) {
    std::vector<torch::Tensor> ins, outs;
    for (int i = 0; i < o_.microbatches; ++i) {
      ins.push_back(recv_forward(i, clock));
      outs.push_back(forward(i, ins.back()));
      send_forward(outs.back(), clock);
    }
    for (int i = o_.microbatches - 1; i >= 0; --i) {
      const auto k = static_cast<std::size_t>(i);
      backward(outs[k], stage_->last ? torch::Tensor() : recv_backward(clock));
      send_backward(ins[k], clock);
    }
  }

  // 1F1B as in Megatron-LM: p - r - 1 warm-up forwards, then one forward and one backward in turn, then
  // the remaining backwards; the steady state pairs each send with the receive it waits for.
  void one_f_one_b(CommClock& clock) {
    const int m = o_.microbatches, warmup = std::min(o_.layout.pp - c_.pp - 1, m), steady = m - warmup;
    std::deque<std::pair<torch::Tensor, torch::Tensor>> pending;  // (input, output) awaiting backward
    int next = 0;
    for (int i = 0; i < warmup; ++i, ++next) {
      auto x = recv_forward(next, clock);
      auto y = forward(next, x);
      send_forward(y, clock);
      pending.emplace_back(x, y);
    }
    torch::Tensor x = steady > 0 ? recv_forward(next, clock) : torch::Tensor();
    for (int i = 0; i < steady; ++i, ++next) {
      auto y = forward(next, x);
      const torch::Tensor grad = stage_->last ? torch::Tensor() : send_forward_recv_backward(y, clock);
      pending.emplace_back(x, y);
      auto [in, out] = pending.front();
      pending.pop_front();
      backward(out, grad);
      if (i == steady - 1 || stage_->first) {
        send_backward(in, clock);
        if (i < steady - 1) x = recv_forward(next + 1, clock);
      } else {
        x = send_backward_recv_forward(in, clock);
      }
    }
    while (!pending.empty()) {
      auto [in, out] = pending.front();
      pending.pop_front();
      backward(out, stage_->last ? torch::Tensor() : recv_backward(clock));
      send_backward(in, clock);
    }
  }

  const Options& o_;
  Groups& g_;
  Coordinates c_;
  GptStage stage_;
  torch::ScalarType wire_;
  torch::Device device_;
  std::vector<std::int64_t> tokens_;
  std::vector<torch::Tensor> inputs_, targets_;
  torch::Tensor loss_;  // the step's, summed over micro-batches
  double tensor_seconds_ = 0;
};

// One ResNet-18 replica: data-parallel only.
class ResNetRank final : public Trainer {
 public:
  ResNetRank(const Options& o, const Groups& g, torch::Device device)
      : o_(o), replica_(g.world.rank()), model_(o.model.classes, o.seed), device_(device) {
    model_->to(device);
    if (o.data.format == DataFormat::cifar10) cifar10_ = load_cifar10(o.data.path, o.model.classes);
  }
  std::vector<torch::Tensor> parameters() override { return model_->parameters(); }
  int backwards_per_step() const override { return 1; }
  torch::Tensor step(int step_index, CommClock& /*clock*/) override {
    const auto first = first_sample(step_index, o_.layout.dp, replica_, o_.batch);
    Images data = cifar10_.size() > 0 ? cifar10_images(cifar10_, first, o_.batch)
                                      : synthetic_images(o_.seed, first, o_.batch, o_.model.classes);
    const auto images = torch::from_blob(data.pixels.data(), {o_.batch, 3, 32, 32}, torch::kFloat).to(device_);
    const auto labels = torch::from_blob(data.labels.data(), {o_.batch}, torch::kLong).to(device_);
    auto loss = torch::nn::functional::cross_entropy(model_->forward(images), labels);
    loss.backward();
    return loss.detach();
  }

 private:
  const Options& o_;
  int replica_;
  ResNet18 model_;
  torch::Device device_;
  Cifar10 cifar10_;  // empty: the synthetic images
};

std::unique_ptr<Trainer> make_trainer(const Options& o, Groups& g, torch::Device device) {
  if (o.model.family == Family::resnet) return std::make_unique<ResNetRank>(o, g, device);
  return std::make_unique<GptRank>(o, g, device);
}

// Turns autocast to bf16 on or off for one device type, in this thread (where forward runs).
void set_autocast(c10::DeviceType type, bool on) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  if (on) at::autocast::set_autocast_dtype(type, at::kBFloat16);
  at::autocast::set_autocast_enabled(type, on);
#else
  if (type == c10::DeviceType::CUDA) {
    if (on) at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
    at::autocast::set_enabled(on);
  } else {
    if (on) at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(on);
  }
#endif
}

// bf16: autocast on the training device, as torch.autocast(device, torch.bfloat16): matrix products in
// bf16, weights, gradients and the optimizer in fp32.
class Precision16 {
 public:
  Precision16(bool on, c10::DeviceType device) : on_(on), device_(device) {
    if (on_) set_autocast(device_, true);
  }
  ~Precision16() {
    if (on_) set_autocast(device_, false);
  }
  Precision16(const Precision16&) = delete;
  Precision16& operator=(const Precision16&) = delete;
  // The weights change at every step: their cached bf16 copies must go.
  void end_step() const {
    if (on_) at::autocast::clear_cache();
  }

 private:
  bool on_;
  c10::DeviceType device_;
};

}  // namespace

Groups make_groups(comm::Communicator& world, const Layout& layout) {
  Groups g{world, nullptr, nullptr, nullptr};
  const GroupColor d = data_group(layout, world.rank()), t = tensor_group(layout, world.rank());
  g.data = world.split(d.color, d.key);
  g.tensor = world.split(t.color, t.key);
  const Coordinates c = coordinates(layout, world.rank());
  const bool edge = layout.pp > 1 && (c.pp == 0 || c.pp == layout.pp - 1);
  // Ranks off the first and last stage take a color of their own (groups of one).
  g.embedding = world.split(edge ? c.dp * layout.tp + c.tp : layout.dp * layout.tp + world.rank(), c.pp);
  return g;
}

namespace {

// What the measured steps (after the warm-up) are counted from.
struct Meter {
  CommClock clock;
  std::uint64_t bytes_at_warmup = 0;
  double inner_at_warmup = 0;
};

// A step's time: CUDA events on the device's default stream on a GPU, the host clock on the CPU.
class StepClock {
 public:
  explicit StepClock(const torch::Device& device) {
    if (device.is_cuda()) events_.emplace(device.index());
  }
  void start() {
    if (events_) events_->start();
    else start_ = Clock::now();
  }
  double stop() { return events_ ? events_->stop() : since(start_); }

 private:
  std::optional<comm::CudaEventTimer> events_;
  Clock::time_point start_;
};

// Every step of every epoch: forward and backward, gradient all-reduce, optimizer.
void run_steps(const Options& o, Groups& g, Trainer& rank, GradientSync& sync, ForeachAdamW& optimizer,
               const Precision16& precision, StepClock& step_clock, RankResult& r, Meter& meter) {
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    for (int s = 0; s < o.steps_per_epoch; ++s) {
      const int index = epoch * o.steps_per_epoch + s;
      if (index == o.warmup) meter = Meter{CommClock{}, traffic(g), rank.inner_comm_seconds()};
      step_clock.start();
      optimizer.zero_grad();
      sync.begin_step();
      const torch::Tensor loss = rank.step(index, meter.clock);
      sync.finish(meter.clock);
      rank.after_sync(meter.clock);
      optimizer.step();
      precision.end_step();
      r.losses.push_back(loss.defined() ? loss.item<double>() : 0.0);
      // The injected slowdown (--slowdown-ms): a regression on demand, for testing regression gates.
      if (o.slowdown_ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(o.slowdown_ms));
      r.step_seconds.push_back(step_clock.stop());
    }
    r.epoch_seconds.push_back(since(epoch_start));
  }
}

bool wants_cuda(const Options& o) {
  return o.backend == comm::Backend::nccl || o.device == DeviceChoice::cuda ||
         (o.device == DeviceChoice::automatic && torch::cuda::is_available());
}

// The device this rank trains on: GPU `local_rank mod count` (CUDA_VISIBLE_DEVICES applies) or the CPU.
torch::Device training_device(const Options& o, int local_rank) {
  if (!wants_cuda(o)) return torch::Device(torch::kCPU);
  const int index = comm::use_cuda_device(local_rank, "trainbench --device cuda");
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

// The device's facts for the output: its name, its peak GPU memory, the peak rate the table has.
void describe_device(const torch::Device& device, RankResult& r) {
  if (!device.is_cuda()) {
    r.device = "cpu";
    return;
  }
  r.device_name = comm::cuda_device_name(device.index());
  r.device = "cuda:" + std::to_string(device.index()) + " (" + r.device_name + ")";
  if (const auto peak = cuda_memory_peak(device.index())) {
    r.gpu_peak_allocated_mib = peak->allocated_mib;
    r.gpu_peak_reserved_mib = peak->reserved_mib;
  }
}

}  // namespace

comm::Backend chosen_backend(const Options& o) {
  if (!o.backend_auto) return o.backend;
  return wants_cuda(o) && comm::compiled_in(comm::Backend::nccl) ? comm::Backend::nccl : comm::Backend::gloo;
}

std::string device_problem(const Options& o) {
  const bool nccl = o.backend == comm::Backend::nccl;
  if (!nccl && o.device != DeviceChoice::cuda) return "";
  const std::string who = nccl ? "--backend nccl" : "--device cuda";
  if (torch::cuda::is_available()) return "";
  const comm::CudaDevices runtime = comm::cuda_devices();
  return who + " needs a CUDA GPU and a CUDA libtorch, but libtorch " + TORCH_VERSION + " sees none: " +
         (runtime.count == 0 ? runtime.problem
                             : "the CUDA runtime sees " + std::to_string(runtime.count) +
                                   " device(s), so this libtorch is a CPU build; build trainbench against a CUDA "
                                   "libtorch (docs/trainbench.md)");
}

RankResult train(const Options& o, Groups& g, int local_rank) {
  if (const std::string problem = device_problem(o); !problem.empty()) throw std::runtime_error(problem);
  torch::set_num_threads(o.threads);
  const torch::Device device = training_device(o, local_rank);
  RankResult r;
  r.torch_version = TORCH_VERSION;
  const Precision16 precision(o.dtype == Precision::bf16, device.type());
  const auto rank = make_trainer(o, g, device);
  std::vector<torch::Tensor> params = rank->parameters();
  for (const auto& p : params) r.parameters += p.numel();
  // On nccl a rank overlaps only when nothing else communicates during backward (data parallelism
  // alone): concurrent NCCL kernels of two communicators may wait on each other across ranks.
  const bool overlap = o.overlap && (!device.is_cuda() || o.backend != comm::Backend::nccl ||
                                     (o.layout.tp == 1 && o.layout.pp == 1));
  GradientSync sync(params, g.data.get(), o.bucket_mib * 1024 * 1024, rank->backwards_per_step(), overlap,
                    wire_of(o.grad_dtype), device);
  r.overlapped = sync.overlapping();
  ForeachAdamW optimizer(params, o.lr, 0.0);
  Meter meter;
  StepClock step_clock(device);
  run_steps(o, g, *rank, sync, optimizer, precision, step_clock, r, meter);
  const double steps = o.steps() - o.warmup;
  const double inner = rank->inner_comm_seconds() - meter.inner_at_warmup;
  r.comm_bytes_per_step = static_cast<double>(traffic(g) - meter.bytes_at_warmup) / steps;
  r.comm_seconds_per_step = (meter.clock.seconds + inner) / steps;
  r.exposed_comm_seconds_per_step = (meter.clock.exposed + inner) / steps;
  r.peak_memory_mib = peak_rss_mib();
  describe_device(device, r);
  r.parameter_hash = fnv1a(params);
  return r;
}

}  // namespace sweep::trainbench
