#pragma once
// The parallel layout of a training run: D data-parallel replicas of a model split into T tensor
// slices and P pipeline stages, on D·T·P ranks. Ranks are ordered as in Megatron-LM: tensor index
// fastest, then data, then pipeline, so that a tensor group sits on consecutive ranks (one node).
// Pure: validation and rank arithmetic only.
#include <string>
#include <vector>

#include "trainbench/model_config.h"
#include "trainbench/refusal.h"

namespace sweep::trainbench {

/// The batch per data-parallel rank and its micro-batches when --batch and --microbatches are left out.
inline constexpr int kDefaultBatch = 8;
inline constexpr int kDefaultMicrobatches = 1;

struct Layout {
  int dp = 1;
  int tp = 1;
  int pp = 1;
  int world() const { return dp * tp * pp; }
};

struct Coordinates {
  int dp = 0;  // replica index
  int tp = 0;  // tensor slice
  int pp = 0;  // pipeline stage
};

Coordinates coordinates(const Layout& layout, int rank);
int rank_of(const Layout& layout, const Coordinates& c);

/// Colors for Communicator::split: ranks with equal color share a group, keyed by the index in it.
struct GroupColor {
  int color;
  int key;
};
GroupColor data_group(const Layout& layout, int rank);    // same tp and pp; key dp
GroupColor tensor_group(const Layout& layout, int rank);  // same dp and pp; key tp

/// Layers of GPT stage `stage`: [first, first + count), spread as evenly as the division allows, the
/// earlier stages taking one more when it does not divide.
struct StageLayers {
  int first;
  int count;
};
StageLayers stage_layers(int layers, int stages, int stage);

/// Every reason the layout cannot run this model on `world` ranks, each naming the options at fault
/// and what they need; empty when it can. `batch` is per data-parallel rank, split into
/// `microbatches` when there is more than one stage. A rule about the model's shape names the shape
/// option ("heads", "layers") among its options, whether it was given or came from the preset.
std::vector<Refusal> layout_errors(const Layout& layout, int world, const ModelConfig& model, int batch,
                                       int microbatches);

}  // namespace sweep::trainbench
