#include "trainbench/layout.h"

#include <fmt/format.h>

namespace sweep::trainbench {

Coordinates coordinates(const Layout& layout, int rank) {
  return Coordinates{(rank / layout.tp) % layout.dp, rank % layout.tp, rank / (layout.tp * layout.dp)};
}

int rank_of(const Layout& layout, const Coordinates& c) { return (c.pp * layout.dp + c.dp) * layout.tp + c.tp; }

GroupColor data_group(const Layout& layout, int rank) {
  const Coordinates c = coordinates(layout, rank);
  return {c.pp * layout.tp + c.tp, c.dp};
}

GroupColor tensor_group(const Layout& layout, int rank) {
  const Coordinates c = coordinates(layout, rank);
  return {c.pp * layout.dp + c.dp, c.tp};
}

StageLayers stage_layers(int layers, int stages, int stage) {
  const int base = layers / stages, extra = layers % stages;
  return {stage * base + (stage < extra ? stage : extra), base + (stage < extra ? 1 : 0)};
}

std::vector<Refusal> layout_errors(const Layout& layout, int world, const ModelConfig& model, int batch,
                                   int microbatches) {
  std::vector<Refusal> errors;
  const auto fail = [&](std::string message, std::vector<std::string_view> options) {
    errors.push_back({std::move(message), std::move(options)});
  };
  if (layout.dp < 1 || layout.tp < 1 || layout.pp < 1)
    fail(fmt::format("--dp {}, --tp {} and --pp {} must each be at least 1", layout.dp, layout.tp, layout.pp),
         {"dp", "tp", "pp"});
  else if (layout.world() != world)
    fail(fmt::format("--dp {} x --tp {} x --pp {} = {} ranks, but the world has {} (their product must equal it)",
                     layout.dp, layout.tp, layout.pp, layout.world(), world),
         {"dp", "tp", "pp"});
  if (model.family == Family::resnet && (layout.tp > 1 || layout.pp > 1))
    fail(fmt::format("{} supports data parallelism only (got --tp {} --pp {}); tensor and pipeline parallelism "
                     "are for GPT models", model.name, layout.tp, layout.pp),
         {"model", "tp", "pp"});
  if (model.family == Family::gpt) {
    if (layout.tp > model.heads || (layout.tp > 0 && model.heads % layout.tp != 0))
      fail(fmt::format("--tp {} must divide the {} attention heads (each tensor slice holds whole heads)", layout.tp,
                       model.heads),
           {"tp", "heads"});
    if (layout.pp > model.layers)
      fail(fmt::format("--pp {} stages exceed the {} layers (every stage needs at least one)", layout.pp, model.layers),
           {"pp", "layers"});
  }
  if (batch < 1) fail(fmt::format("--batch {} must be at least 1", batch), {"batch"});
  if (microbatches < 1)
    fail(fmt::format("--microbatches {} must be at least 1", microbatches), {"microbatches"});
  else if (batch >= 1 && batch % microbatches != 0)
    fail(fmt::format("--batch {} does not divide into --microbatches {}", batch, microbatches), {"batch", "microbatches"});
  return errors;
}

}  // namespace sweep::trainbench
