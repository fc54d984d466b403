#pragma once
// The options that decide whether a run of trainbench can be laid out at all (the model and its
// shape, dp x tp x pp, the batch and its micro-batches), as a command line gives them, and every
// reason trainbench refuses them before any work. trainbench applies the same rules at start
// (resolve_model() in options.cpp, layout_errors() in main.cpp); sweep applies them at plan time
// (orchestrator/spec/trainbench_args.h), so a point that cannot run is refused before it is queued.
// Pure: no torch, no MPI.
#include <string>
#include <vector>

#include "trainbench/layout.h"
#include "trainbench/model_config.h"
#include "trainbench/refusal.h"

namespace sweep::trainbench {

/// Each member starts at trainbench's default for the option left out.
struct LayoutOptions {
  std::string model{kDefaultModel};  // --model
  ShapeOverrides shape;              // --layers, --width, --heads, --seq, --vocab
  Layout layout;                     // --dp, --tp, --pp
  int batch = kDefaultBatch;         // --batch
  int microbatches = kDefaultMicrobatches;  // --microbatches
};

/// Every reason trainbench would refuse `options` on `world` ranks, in its order: the model's first
/// reason alone when the model cannot be built (trainbench stops there), else every reason of
/// layout_errors(). A shape option among a reason's options that `options.shape` leaves out is
/// replaced by "model", whose preset gave its value. Empty: trainbench starts.
std::vector<Refusal> start_refusals(const LayoutOptions& options, int world);

}  // namespace sweep::trainbench
