#include "trainbench/layout_options.h"

#include <algorithm>
#include <utility>

namespace sweep::trainbench {
namespace {

// The reason's options with the shape values the preset gave attributed to "model", each once.
Refusal attribute(Refusal refusal, const ShapeOverrides& shape) {
  std::vector<std::string_view> options;
  for (const std::string_view option : refusal.options) {
    const std::string_view name = from_preset(shape, option) ? "model" : option;
    if (std::find(options.begin(), options.end(), name) == options.end()) options.push_back(name);
  }
  refusal.options = std::move(options);
  return refusal;
}

}  // namespace

std::vector<Refusal> start_refusals(const LayoutOptions& options, int world) {
  const auto model = resolve_model(options.model, options.shape);
  if (const auto* refusal = std::get_if<Refusal>(&model)) return {attribute(*refusal, options.shape)};
  std::vector<Refusal> refusals = layout_errors(options.layout, world, std::get<ModelConfig>(model), options.batch,
                                                options.microbatches);
  for (Refusal& r : refusals) r = attribute(std::move(r), options.shape);
  return refusals;
}

}  // namespace sweep::trainbench
