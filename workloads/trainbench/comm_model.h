#pragma once
// The analytical model of trainbench's communication: bytes handed to collectives per step by one
// rank, counted the way comm::Traffic counts them (the input buffer of each call), so that the
// prediction and the measurement compare one to one. Pure.
//
// - DP: one all-reduce of every local gradient: stage_parameters·g (g = 4 fp32, 2 bf16: --grad-dtype).
// - TP (Megatron): per layer and micro-batch, 2 all-reduces forward and 2 backward of b·s·h
//   activations (b = micro-batch size).
// - PP: per micro-batch, a stage receives its input and sends its input's gradient (unless first),
//   and sends its output and receives the output's gradient (unless last); each b·s·h activations.
// - The tied embedding when P > 1: the first and last stages all-reduce its gradient (V·C·g).
// A ring all-reduce puts 2(n-1)/n times its input on the wire; wire_factor() gives that factor.
#include <cstdint>

#include "trainbench/layout.h"
#include "trainbench/model_config.h"

namespace sweep::trainbench {

struct CommPrediction {
  double data_parallel = 0;
  double tensor_parallel = 0;
  double pipeline = 0;
  double embedding = 0;
  double total() const { return data_parallel + tensor_parallel + pipeline + embedding; }
};

/// Parameters held by the rank at `c` (its stage's layers, sliced by TP; embeddings on the first
/// stage; the final norm, and with P > 1 a copy of the tied embedding, on the last).
std::int64_t stage_parameters(const ModelConfig& m, const Layout& l, const Coordinates& c);

/// Bytes per element sent between ranks (4 fp32, 2 bf16): activations (--dtype) and gradients
/// (--grad-dtype).
struct WireBytes {
  int activation = 4;
  int gradient = 4;
};

CommPrediction predict_comm(const ModelConfig& m, const Layout& l, const Coordinates& c, int batch, int microbatches,
                            WireBytes bytes);

double wire_factor(int ranks);

}  // namespace sweep::trainbench
