#pragma once
// The analytical model of a data/tensor/pipeline-parallel training step (docs/model.md). Pure.
//
// Communication is the α-β model over one link type: a message of S bytes costs α + S/β. A ring
// all-reduce over n ranks sends 2(n-1)/n·S bytes per rank in 2(n-1) steps. `transfers` counts how many
// times those bytes cross a link of bandwidth β: 1 when send and receive overlap (full duplex, the
// default), 2 when both directions share the bandwidth given (the back-of-envelope of seed 000, which
// "considers the all-reduce operation requires two transfers per step").
//
// Volumes per rank and step (e bytes per element, b = batch/m the micro-batch, T sequence, C width):
//   DP: 2(d-1)/d · N/(t·p) · e       (each rank all-reduces the gradients of its slice of the model)
//   TP: (L/p) · m · 4 · 2(t-1)/t · b·T·C·e   (Megatron: 2 all-reduces forward, 2 backward per layer)
//   PP: 2 · m · b·T·C·e               (an interior stage sends an activation and a gradient per micro-batch)
//       + V·C · e_grad on the first and last stage (the tied embedding's gradients, all-reduced by the pair)
// Compute: the single-GPU epoch time divided over the d·t·p ranks, stretched by the pipeline bubble
// (p-1)/m. Communication is not overlapped with compute: the prediction is an upper bound on time.
#include <optional>
#include <string_view>

namespace sweep::model {

struct Workload {
  double parameters = 0;  // N (the seeds count GPT-2 without embeddings)
  double element_bytes = 2;   // e: activations (TP, PP)
  int dp = 1, tp = 1, pp = 1, microbatches = 1;
  // For TP and PP volumes (GPT): per-data-parallel-rank batch, sequence length, width, layers.
  int batch = 0, seq = 0, width = 0, layers = 0;
  double gradient_bytes = 0;  // bytes per all-reduced gradient element (DP); 0 = element_bytes
  int vocab = 0;  // V: with pp > 1 the first and last stage all-reduce the tied embedding's gradients
  int world() const { return dp * tp * pp; }
  double gradient_element_bytes() const { return gradient_bytes > 0 ? gradient_bytes : element_bytes; }
};

struct Link {
  double bandwidth = 0;  // bytes/s, one direction
  double latency = 0;    // s
  int transfers = 1;
};

struct Volumes {
  double data_parallel = 0, tensor_parallel = 0, pipeline = 0;  // bytes sent per rank and step
  double total() const { return data_parallel + tensor_parallel + pipeline; }
};
Volumes volumes(const Workload& w);

/// Time of one ring all-reduce of `bytes` over `ranks`: 2(n-1)·α + transfers·2(n-1)/n·bytes/β.
double allreduce_seconds(double bytes, int ranks, const Link& link);

/// Seconds per step of 6·N·tokens FLOPs at `peak_flops`·`mfu` (seed 002's compute side).
double compute_seconds(double parameters, double tokens, double peak_flops, double mfu);

struct Prediction {
  Volumes volume;
  double data_parallel_seconds = 0, tensor_parallel_seconds = 0, pipeline_seconds = 0;  // per step
  double bubble = 0;           // (p-1)/m
  double compute_epoch = 0;    // single_epoch / world · (1 + bubble)
  double comm_epoch = 0;       // steps · communication per step
  double epoch = 0;
  double scaling_factor = 0;   // single_epoch / (world · epoch): 1 is ideal
};

/// `single_epoch`: the measured epoch time on one GPU; `steps`: steps per epoch of the parallel run.
/// `measured_allreduce`: seconds of one data-parallel all-reduce measured (e.g. by collbench); when
/// given it replaces the α-β estimate of the DP term.
Prediction predict(const Workload& w, const Link& link, double single_epoch, double steps,
                   std::optional<double> measured_allreduce = std::nullopt);

}  // namespace sweep::model

namespace sweep::model {

/// "708M", "1.5B", "124439808", "85e6": a count with an optional K/M/B/G suffix (powers of 1000).
/// nullopt for anything else, or a count that is not positive and finite.
std::optional<double> parse_count(std::string_view text);

}  // namespace sweep::model
