#include "trainbench/model_config.h"

#include <array>

#include <fmt/format.h>

namespace sweep::trainbench {
namespace {

// GPT-2 shapes as released (vocabulary 50257, context 1024); gpt2-tiny is for tests on 2 CPU cores.
const std::array<ModelConfig, 6> kPresets{{
    {"gpt2-tiny", Family::gpt, 2, 64, 4, 32, 256, 0},
    {"gpt2", Family::gpt, 12, 768, 12, 1024, 50257, 0},
    {"gpt2-medium", Family::gpt, 24, 1024, 16, 1024, 50257, 0},
    {"gpt2-large", Family::gpt, 36, 1280, 20, 1024, 50257, 0},
    {"gpt2-xl", Family::gpt, 48, 1600, 25, 1024, 50257, 0},
    {"resnet18", Family::resnet, 0, 0, 0, 0, 0, 10},
}};

// ResNet-18 for 32x32 input (3x3 stem, no max-pool), as commonly trained on CIFAR-10: a conv has
// k·k·in·out weights and no bias, a batch norm 2 per channel, the fc 512·classes + classes.
std::int64_t resnet18_parameters(int classes) {
  const auto conv = [](std::int64_t k, std::int64_t in, std::int64_t out) { return k * k * in * out; };
  const auto bn = [](std::int64_t c) { return 2 * c; };
  std::int64_t n = conv(3, 3, 64) + bn(64);
  std::int64_t in = 64;
  for (const std::int64_t out : {64, 128, 256, 512}) {
    for (int block = 0; block < 2; ++block) {
      const std::int64_t block_in = block == 0 ? in : out;
      n += conv(3, block_in, out) + bn(out) + conv(3, out, out) + bn(out);
      if (block == 0 && block_in != out) n += conv(1, block_in, out) + bn(out);  // projection shortcut
    }
    in = out;
  }
  return n + 512 * classes + classes;
}

// The shape options, each with where ShapeOverrides and ModelConfig hold its value.
struct ShapeOption {
  std::string_view name;
  std::optional<int> ShapeOverrides::*given;
  int ModelConfig::*value;
};
constexpr std::array<ShapeOption, 5> kShapeOptions{{
    {"layers", &ShapeOverrides::layers, &ModelConfig::layers},
    {"width", &ShapeOverrides::width, &ModelConfig::width},
    {"heads", &ShapeOverrides::heads, &ModelConfig::heads},
    {"seq", &ShapeOverrides::seq, &ModelConfig::seq},
    {"vocab", &ShapeOverrides::vocab, &ModelConfig::vocab},
}};

}  // namespace

std::optional<ModelConfig> preset(std::string_view name) {
  for (const auto& p : kPresets)
    if (p.name == name) return p;
  return std::nullopt;
}

std::string preset_names() {
  std::string names;
  for (const auto& p : kPresets) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

std::variant<ModelConfig, Refusal> resolve_model(std::string_view name, const ShapeOverrides& shape) {
  auto model = preset(name);
  if (!model) return Refusal{fmt::format("--model: \"{}\" is not one of {}", name, preset_names()), {"model"}};
  for (const ShapeOption& option : kShapeOptions) {
    const std::optional<int>& given = shape.*option.given;
    if (!given) continue;
    if (model->family == Family::resnet)
      return Refusal{fmt::format("--{} shapes GPT models; {} has a fixed shape", option.name, model->name),
                     {option.name, "model"}};
    if (*given < 1) return Refusal{fmt::format("--{} must be at least 1, got {}", option.name, *given), {option.name}};
    if (*given != (*model).*option.value) model->name = "custom";  // the preset's own value keeps its name
    (*model).*option.value = *given;
  }
  if (model->family == Family::gpt && model->width % model->heads != 0)
    return Refusal{fmt::format("--width {} must divide by --heads {} (each head takes width/heads channels)",
                               model->width, model->heads),
                   {"width", "heads"}};
  return *model;
}

bool from_preset(const ShapeOverrides& shape, std::string_view option) {
  for (const ShapeOption& o : kShapeOptions)
    if (o.name == option) return !(shape.*o.given);
  return false;
}

std::int64_t parameter_count_without_embeddings(const ModelConfig& m) {
  if (m.family == Family::resnet) return resnet18_parameters(m.classes);
  const std::int64_t c = m.width;
  return m.layers * (12 * c * c + 13 * c) + 2 * c;
}

std::int64_t parameter_count(const ModelConfig& m) {
  if (m.family == Family::resnet) return resnet18_parameters(m.classes);
  return parameter_count_without_embeddings(m) + static_cast<std::int64_t>(m.vocab + m.seq) * m.width;
}

double flops_per_token(const ModelConfig& m) {
  if (m.family == Family::resnet) return 0;
  return 6.0 * static_cast<double>(parameter_count(m)) + 6.0 * m.layers * m.width * static_cast<double>(m.seq);
}

}  // namespace sweep::trainbench
