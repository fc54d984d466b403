#pragma once
// trainbench's model shapes: the GPT-2 family (standard configurations, plus custom sizes) and
// ResNet-18 on CIFAR-10-shaped input. Pure: parameter counts and FLOPs come from the shapes alone.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "trainbench/refusal.h"

namespace sweep::trainbench {

enum class Family { gpt, resnet };

/// The model trainbench trains when --model is left out.
inline constexpr std::string_view kDefaultModel = "gpt2-tiny";

struct ModelConfig {
  std::string name;  // preset name, or "custom"
  Family family = Family::gpt;
  int layers = 0;  // GPT: transformer blocks
  int width = 0;   // GPT: embedding width C
  int heads = 0;
  int seq = 0;     // GPT: sequence length T (the context the model is built for)
  int vocab = 0;
  int classes = 10;  // ResNet: CIFAR-10
};

/// The preset of that name: gpt2-tiny, gpt2, gpt2-medium, gpt2-large, gpt2-xl, resnet18.
std::optional<ModelConfig> preset(std::string_view name);
/// The preset names, comma-separated (for messages).
std::string preset_names();

/// The GPT shape options --layers, --width, --heads, --seq and --vocab; nullopt: left out (the preset's).
struct ShapeOverrides {
  std::optional<int> layers, width, heads, seq, vocab;
};

/// The model that `--model name` and the shape options give, as trainbench builds it: the preset with
/// each given value in place, named "custom" unless every given value is the preset's own. Refused
/// (trainbench's first reason, as at start): an unknown name, a shape option for resnet18, a value
/// below 1, a width that does not divide by the heads.
std::variant<ModelConfig, Refusal> resolve_model(std::string_view name, const ShapeOverrides& shape);

/// Whether `option` (without "--") is a shape option that `shape` leaves out, whose value the preset gives.
bool from_preset(const ShapeOverrides& shape, std::string_view option);

/// GPT-2 parameters with tied input and output embeddings: V·C + T·C (embeddings) plus
/// L·(12C² + 13C) + 2C (blocks and final norm). ResNet-18: its conv, batch-norm and fc weights.
std::int64_t parameter_count(const ModelConfig& m);
/// The same without the token and position embeddings (GPT-2 small: about 85M of 124M).
std::int64_t parameter_count_without_embeddings(const ModelConfig& m);

/// Training FLOPs per token, llm.c's convention: 6·N + 6·L·C·T with N = parameter_count (GPT only).
double flops_per_token(const ModelConfig& m);

}  // namespace sweep::trainbench
