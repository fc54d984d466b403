// The GPT-2 model of trainbench, sliced for tensor and pipeline parallelism, and Megatron's tensor-
// group operators. One of the few files that include torch.
#include <cmath>

#include "trainbench/models.h"
#include "trainbench/tensor_comm.h"

namespace sweep::trainbench {
namespace {

// Sums x over the group, sending it in `wire` precision (fp32 or bf16), through host memory for a CPU
// backend; returns x's dtype on x's device. Adds the collective's time to `seconds`.
torch::Tensor all_reduce(const torch::Tensor& x, comm::Communicator& group, double* seconds, torch::ScalarType wire) {
  torch::Tensor in = for_group(x.to(wire), group);
  torch::Tensor out = torch::empty_like(in);
  const double took = group.timed([&] {
    group.all_reduce(in.data_ptr(), out.data_ptr(), static_cast<std::size_t>(in.numel()), comm_dtype(wire),
                     comm::ReduceOp::sum);
  });
  if (seconds) *seconds += took;
  return out.to(x.device(), x.scalar_type());
}

comm::Communicator* group_of(torch::autograd::AutogradContext* ctx) {
  return reinterpret_cast<comm::Communicator*>(ctx->saved_data["group"].toInt());
}
double* seconds_of(torch::autograd::AutogradContext* ctx) {
  return reinterpret_cast<double*>(ctx->saved_data["seconds"].toInt());
}
torch::ScalarType wire_of(torch::autograd::AutogradContext* ctx) {
  return static_cast<torch::ScalarType>(ctx->saved_data["wire"].toInt());
}
void save(torch::autograd::AutogradContext* ctx, const TensorGroup& g) {
  ctx->saved_data["group"] = reinterpret_cast<std::int64_t>(g.group);
  ctx->saved_data["seconds"] = reinterpret_cast<std::int64_t>(g.seconds);
  ctx->saved_data["wire"] = static_cast<std::int64_t>(g.wire);
}
TensorGroup unpack(std::int64_t group, std::int64_t seconds, std::int64_t wire) {
  return {reinterpret_cast<comm::Communicator*>(group), reinterpret_cast<double*>(seconds),
          static_cast<torch::ScalarType>(wire)};
}

struct CopyToGroup : torch::autograd::Function<CopyToGroup> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, std::int64_t group,
                               std::int64_t seconds, std::int64_t wire) {
    save(ctx, unpack(group, seconds, wire));
    return x.view_as(x);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list g) {
    return {all_reduce(g[0], *group_of(ctx), seconds_of(ctx), wire_of(ctx)), torch::Tensor(), torch::Tensor(),
            torch::Tensor()};
  }
};

struct ReduceFromGroup : torch::autograd::Function<ReduceFromGroup> {
  static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x, std::int64_t group,
                               std::int64_t seconds, std::int64_t wire) {
    const TensorGroup g = unpack(group, seconds, wire);
    return all_reduce(x, *g.group, g.seconds, g.wire);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext*, torch::autograd::variable_list g) {
    return {g[0], torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

// Weights are drawn whole, from a generator seeded by (seed, name), then sliced: any layout starts
// from the single-rank model. GPT-2's initialisation: N(0, 0.02), residual projections scaled by
// 1/sqrt(2L), biases zero.
torch::Tensor normal(std::uint64_t seed, const std::string& name, torch::IntArrayRef shape, double std) {
  auto generator = at::detail::createCPUGenerator(seed ^ std::hash<std::string>{}(name));
  return torch::normal(0.0, std, shape, generator);
}

// Rows [j·n/t, (j+1)·n/t) of each of `parts` equal chunks along dim 0 (q, k and v of qkv).
torch::Tensor column_slice(const torch::Tensor& w, int parts, int t, int j) {
  std::vector<torch::Tensor> pieces;
  for (const auto& chunk : w.chunk(parts, 0)) pieces.push_back(chunk.chunk(t, 0)[j]);
  return torch::cat(pieces, 0).contiguous();
}

// softmax(q·kᵀ/√d + causal mask)·v over [b, heads, T, d]. libtorch 2 has it fused
// (scaled_dot_product_attention: flash attention on a GPU); libtorch 1.13 (Debian's) computes it whole.
torch::Tensor causal_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
#if TORCH_VERSION_MAJOR >= 2
  return torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
#else
  const auto T = q.size(2);
  auto att = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(3)));
  // Built here, not a buffer (see workloads.md), on the device of the scores.
  const auto causal = torch::ones({T, T}, att.options().dtype(torch::kBool)).triu(1);
  att = torch::softmax(att.masked_fill(causal, -std::numeric_limits<float>::infinity()), -1);
  return torch::matmul(att, v);
#endif
}

// x·wᵀ + b as ATen's linear, which autocast casts whole (bias included) and which folds the bias into
// the product (one cuBLAS call with a bias epilogue), as torch.nn.Linear. The C++ frontend's
// torch::nn::functional::linear does neither for 3-D inputs: a bf16 product, then the fp32 bias added
// by a separate broadcast kernel in fp32 (on a GPU, about 7% of a GPT-2 step).
torch::Tensor fused_linear(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b = {}) {
  return torch::linear(x, w, b.defined() ? c10::optional<torch::Tensor>(b) : c10::nullopt);
}

}  // namespace

torch::Tensor copy_to_tensor_group(const torch::Tensor& x, const TensorGroup& g) {
  if (!g.group || g.group->size() == 1) return x;
  return CopyToGroup::apply(x, reinterpret_cast<std::int64_t>(g.group), reinterpret_cast<std::int64_t>(g.seconds),
                            static_cast<std::int64_t>(g.wire));
}

torch::Tensor reduce_from_tensor_group(const torch::Tensor& x, const TensorGroup& g) {
  if (!g.group || g.group->size() == 1) return x;
  return ReduceFromGroup::apply(x, reinterpret_cast<std::int64_t>(g.group), reinterpret_cast<std::int64_t>(g.seconds),
                                static_cast<std::int64_t>(g.wire));
}

BlockImpl::BlockImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, int layer, std::uint64_t seed)
    : local_heads(m.heads / l.tp), head_dim(m.width / m.heads) {
  const std::int64_t C = m.width;
  const std::string p = "h." + std::to_string(layer) + ".";
  const double residual_std = 0.02 / std::sqrt(2.0 * m.layers);
  ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({C})));
  ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({C})));
  qkv_w = register_parameter("qkv_w", column_slice(normal(seed, p + "qkv", {3 * C, C}, 0.02), 3, l.tp, c.tp));
  qkv_b = register_parameter("qkv_b", torch::zeros({3 * C / l.tp}));
  proj_w = register_parameter("proj_w", normal(seed, p + "proj", {C, C}, residual_std).chunk(l.tp, 1)[c.tp].contiguous());
  proj_b = register_parameter("proj_b", torch::zeros({C}));
  fc_w = register_parameter("fc_w", column_slice(normal(seed, p + "fc", {4 * C, C}, 0.02), 1, l.tp, c.tp));
  fc_b = register_parameter("fc_b", torch::zeros({4 * C / l.tp}));
  fc2_w = register_parameter("fc2_w", normal(seed, p + "fc2", {C, 4 * C}, residual_std).chunk(l.tp, 1)[c.tp].contiguous());
  fc2_b = register_parameter("fc2_b", torch::zeros({C}));
}

// A row-parallel linear: each slice's product summed over the tensor group, then the bias once. On one
// slice the bias goes into the product itself.
torch::Tensor BlockImpl::row_parallel(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) const {
  if (!tensor_group.group || tensor_group.group->size() == 1) return fused_linear(x, w, b);
  return reduce_from_tensor_group(fused_linear(x, w), tensor_group) + b;
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x) {
  const auto b = x.size(0), T = x.size(1);
  // Attention: qkv is column-parallel (whole heads per slice), proj row-parallel.
  auto h = copy_to_tensor_group(ln1(x), tensor_group);
  // unbind, not three selects: its backward writes the three gradients into one tensor (one copy),
  // where each select's would zero a whole qkv-sized tensor and add them up.
  const auto qkv = fused_linear(h, qkv_w, qkv_b).view({b, T, 3, local_heads, head_dim}).unbind(2);
  auto q = qkv[0].transpose(1, 2), k = qkv[1].transpose(1, 2), v = qkv[2].transpose(1, 2);
  auto y = causal_attention(q, k, v).transpose(1, 2).reshape({b, T, local_heads * head_dim});
  y = row_parallel(y, proj_w, proj_b);
  auto r = x + y;
  // MLP: fc column-parallel, fc2 row-parallel.
  auto f = copy_to_tensor_group(ln2(r), tensor_group);
  f = torch::gelu(fused_linear(f, fc_w, fc_b), "tanh");
  f = row_parallel(f, fc2_w, fc2_b);
  return r + f;
}

GptStageImpl::GptStageImpl(const ModelConfig& m, const Layout& l, const Coordinates& c, std::uint64_t seed)
    : first(c.pp == 0), last(c.pp == l.pp - 1) {
  const std::int64_t C = m.width;
  if (first) {
    wte = register_parameter("wte", normal(seed, "wte", {m.vocab, C}, 0.02));
    wpe = register_parameter("wpe", normal(seed, "wpe", {m.seq, C}, 0.01));
  }
  const StageLayers layers = stage_layers(m.layers, l.pp, c.pp);
  for (int i = 0; i < layers.count; ++i)
    blocks.push_back(register_module("h" + std::to_string(layers.first + i), Block(m, l, c, layers.first + i, seed)));
  if (last) {
    lnf_w = register_parameter("lnf_w", torch::ones({C}));
    lnf_b = register_parameter("lnf_b", torch::zeros({C}));
    head = first ? wte : register_parameter("head", normal(seed, "wte", {m.vocab, C}, 0.02));  // the tied copy
  }
}

void GptStageImpl::set_tensor_group(const TensorGroup& group) {
  for (auto& block : blocks) block->tensor_group = group;
}

torch::Tensor GptStageImpl::forward(const torch::Tensor& input) {
  torch::Tensor x = input;
  if (first) {
    const auto T = input.size(1);
    x = torch::embedding(wte, input) + wpe.narrow(0, 0, T);
  }
  for (auto& block : blocks) x = block->forward(x);
  if (!last) return x;
  x = torch::layer_norm(x, {x.size(-1)}, lnf_w, lnf_b);
  return torch::matmul(x, head.t());
}

}  // namespace sweep::trainbench
