// trainbench's training loop: data parallelism by bucketed gradient all-reduce, tensor parallelism
// inside the GPT stage (gpt.cpp), pipeline parallelism by GPipe or 1F1B over point-to-point messages
// between neighbouring stages. One of the few files that include torch.
#include "trainbench/engine.h"

#include <sys/resource.h>

#include <chrono>
#include <deque>
#include <stdexcept>

#include "trainbench/data.h"
#include "trainbench/models.h"

namespace sweep::trainbench {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

comm::DType comm_dtype(const torch::Tensor& t) {
  return t.scalar_type() == torch::kBFloat16 ? comm::DType::bf16 : comm::DType::fp32;
}

std::uint64_t fnv1a(const std::vector<torch::Tensor>& tensors) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& t : tensors) {
    const torch::Tensor c = t.detach().contiguous();
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

// Time spent inside communication, and the part the computation waited for.
struct CommClock {
  double seconds = 0;
  double exposed = 0;
  // Runs a blocking communication call: all of its time is exposed.
  template <typename F>
  void blocking(F&& call) {
    const auto start = Clock::now();
    call();
    const double took = since(start);
    seconds += took;
    exposed += took;
  }
};

// The data-parallel gradient all-reduce: gradients in reverse registration order (the order backward
// produces them), packed into fp32 buckets (the first 1 MiB, then `bucket_bytes`, as PyTorch DDP),
// averaged over the data group and unpacked.
class GradientSync {
 public:
  GradientSync(const std::vector<torch::Tensor>& params, comm::Communicator* group, double bucket_bytes)
      : group_(group) {
    std::size_t limit = std::size_t{1} << 20, filled = 0;
    buckets_.emplace_back();
    for (auto it = params.rbegin(); it != params.rend(); ++it) {
      const auto bytes = static_cast<std::size_t>(it->numel()) * sizeof(float);
      if (filled > 0 && filled + bytes > limit) {
        buckets_.emplace_back();
        filled = 0;
        limit = static_cast<std::size_t>(bucket_bytes);
      }
      buckets_.back().push_back(*it);
      filled += bytes;
    }
  }
  void run(CommClock& clock) {
    if (!group_ || group_->size() == 1) return;
    for (auto& bucket : buckets_) {
      std::vector<torch::Tensor> grads;
      for (auto& p : bucket) grads.push_back(p.grad().defined() ? p.grad().reshape(-1) : torch::zeros({p.numel()}));
      torch::Tensor flat = torch::cat(grads).to(torch::kFloat).contiguous();
      clock.blocking([&] {  // no overlap with backward yet: the all-reduces follow it
        group_->all_reduce(flat.data_ptr(), flat.data_ptr(), static_cast<std::size_t>(flat.numel()), comm::DType::fp32,
                           comm::ReduceOp::avg);
      });
      std::int64_t offset = 0;
      for (auto& p : bucket) {
        auto piece = flat.narrow(0, offset, p.numel()).view_as(p);
        if (p.grad().defined()) p.mutable_grad().copy_(piece);
        else p.mutable_grad() = piece.clone();
        offset += p.numel();
      }
    }
  }

 private:
  comm::Communicator* group_;
  std::vector<std::vector<torch::Tensor>> buckets_;
};

// One GPT rank: its stage, its data, its neighbours.
class GptRank {
 public:
  GptRank(const Options& o, Groups& g)
      : o_(o), g_(g), c_(coordinates(o.layout, g.world.rank())), stage_(o.model, o.layout, c_, o.seed) {
    stage_->set_tensor_group(g.tensor.get(), &tensor_seconds_);
    if (!o.data_file.empty()) tokens_ = load_tokens(o.data_file, o.model.vocab, o.model.seq);
  }
  GptStage& stage() { return stage_; }

  // One optimizer step's forward and backward over all micro-batches; returns the mean loss (last
  // stage) and adds the time of point-to-point messages to `clock`.
  double step(int step_index, CommClock& clock) {
    const int m = o_.microbatches;
    const auto sequences = batch(step_index);
    const auto length = o_.model.seq + 1;
    auto all = torch::from_blob(const_cast<std::int64_t*>(sequences.data()), {o_.batch, length}, torch::kLong);
    inputs_ = all.narrow(1, 0, o_.model.seq).chunk(m, 0);
    targets_ = all.narrow(1, 1, o_.model.seq).chunk(m, 0);
    loss_ = 0;
    if (o_.schedule == Schedule::gpipe) gpipe(clock);
    else one_f_one_b(clock);
    return loss_;
  }
  double tensor_seconds() const { return tensor_seconds_; }

 private:
  std::vector<std::int64_t> batch(int step_index) {
    const auto first = (static_cast<std::uint64_t>(step_index) * static_cast<std::uint64_t>(o_.layout.dp) +
                        static_cast<std::uint64_t>(c_.dp)) * static_cast<std::uint64_t>(o_.batch);
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
  // Stage input for micro-batch i: tokens on the first stage, else received from the previous one.
  torch::Tensor recv_forward(int i, CommClock& clock) {
    if (stage_->first) return inputs_[static_cast<std::size_t>(i)];
    torch::Tensor x = torch::empty(activation_shape());
    clock.blocking([&] { g_.world.recv(x.data_ptr(), static_cast<std::size_t>(x.numel()), comm_dtype(x), neighbour(-1)); });
    return x.requires_grad_(true);
  }
  void send_forward(const torch::Tensor& y, CommClock& clock) {
    if (stage_->last) return;
    const torch::Tensor out = y.detach().contiguous();
    clock.blocking([&] { g_.world.send(out.data_ptr(), static_cast<std::size_t>(out.numel()), comm_dtype(out), neighbour(1)); });
  }
  torch::Tensor recv_backward(CommClock& clock) {
    torch::Tensor grad = torch::empty(activation_shape());
    clock.blocking([&] { g_.world.recv(grad.data_ptr(), static_cast<std::size_t>(grad.numel()), comm_dtype(grad), neighbour(1)); });
    return grad;
  }
  void send_backward(const torch::Tensor& x, CommClock& clock) {
    if (stage_->first) return;
    const torch::Tensor grad = x.grad().contiguous();
    clock.blocking([&] { g_.world.send(grad.data_ptr(), static_cast<std::size_t>(grad.numel()), comm_dtype(grad), neighbour(-1)); });
  }
  // Sends this stage's output forward while receiving its gradient (1F1B's steady state).
  torch::Tensor send_forward_recv_backward(const torch::Tensor& y, CommClock& clock) {
    const torch::Tensor out = y.detach().contiguous();
    torch::Tensor grad = torch::empty(activation_shape());
    clock.blocking([&] {
      g_.world.send_recv(out.data_ptr(), neighbour(1), grad.data_ptr(), neighbour(1), static_cast<std::size_t>(out.numel()),
                         comm_dtype(out));
    });
    return grad;
  }
  // Sends an input gradient back while receiving the next micro-batch's input.
  torch::Tensor send_backward_recv_forward(const torch::Tensor& x, CommClock& clock) {
    const torch::Tensor grad = x.grad().contiguous();
    torch::Tensor next = torch::empty(activation_shape());
    clock.blocking([&] {
      g_.world.send_recv(grad.data_ptr(), neighbour(-1), next.data_ptr(), neighbour(-1),
                         static_cast<std::size_t>(grad.numel()), comm_dtype(grad));
    });
    return next.requires_grad_(true);
  }
  torch::Tensor forward(int i, const torch::Tensor& x) {
    torch::Tensor y = stage_->forward(x);
    if (!stage_->last) return y;
    auto loss = torch::nn::functional::cross_entropy(y.reshape({-1, y.size(-1)}),
                                                     targets_[static_cast<std::size_t>(i)].reshape(-1)) /
                o_.microbatches;
    loss_ += loss.item<double>();
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
  std::vector<std::int64_t> tokens_;
  std::vector<torch::Tensor> inputs_, targets_;
  double loss_ = 0;
  double tensor_seconds_ = 0;
};

// The tied embedding on P > 1: the first stage's wte and the last stage's copy get the sum of both
// gradients, so they stay equal.
void sync_embedding(GptStage& stage, comm::Communicator* group, CommClock& clock) {
  if (!group || group->size() < 2) return;
  torch::Tensor& weight = stage->first ? stage->wte : stage->head;
  torch::Tensor grad = weight.grad().contiguous();
  clock.blocking([&] {
    group->all_reduce(grad.data_ptr(), grad.data_ptr(), static_cast<std::size_t>(grad.numel()), comm::DType::fp32,
                      comm::ReduceOp::sum);
  });
  weight.mutable_grad().copy_(grad);
}

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

RankResult train(const Options& o, Groups& g) {
  if (o.model.family != Family::gpt) throw std::runtime_error("resnet18 training is not implemented yet");
  if (o.backend == comm::Backend::nccl)
    throw std::runtime_error("this trainbench is built against a CPU libtorch; the nccl backend needs CUDA tensors");
  torch::set_num_threads(o.threads);
  RankResult r;
  r.torch_version = TORCH_VERSION;
  GptRank rank(o, g);
  std::vector<torch::Tensor> params = rank.stage()->parameters();
  for (const auto& p : params) r.parameters += p.numel();
  GradientSync sync(params, g.data.get(), o.bucket_mib * 1024 * 1024);
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(o.lr).weight_decay(0.0));
  CommClock measured;
  std::uint64_t bytes_at_warmup = 0;
  double tensor_at_warmup = 0;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    for (int s = 0; s < o.steps_per_epoch; ++s) {
      const int index = epoch * o.steps_per_epoch + s;
      if (index == o.warmup) {
        bytes_at_warmup = traffic(g);
        tensor_at_warmup = rank.tensor_seconds();
        measured = CommClock{};
      }
      const auto start = Clock::now();
      optimizer.zero_grad();
      r.losses.push_back(rank.step(index, measured));
      sync_embedding(rank.stage(), g.embedding.get(), measured);
      sync.run(measured);
      optimizer.step();
      r.step_seconds.push_back(since(start));
    }
    r.epoch_seconds.push_back(since(epoch_start));
  }
  const double steps = o.steps() - o.warmup;
  const double tensor = rank.tensor_seconds() - tensor_at_warmup;
  r.comm_bytes_per_step = static_cast<double>(traffic(g) - bytes_at_warmup) / steps;
  r.comm_seconds_per_step = (measured.seconds + tensor) / steps;
  r.exposed_comm_seconds_per_step = (measured.exposed + tensor) / steps;
  r.peak_memory_mib = peak_rss_mib();
  r.parameter_hash = fnv1a(params);
  return r;
}

}  // namespace sweep::trainbench
