#include <catch2/catch.hpp>

#include "trainbench/model_config.h"

using namespace sweep::trainbench;

TEST_CASE("GPT-2 presets have the published parameter counts") {
  // Published: 124M, 355M, 774M, 1558M (tied embeddings, context 1024).
  CHECK(parameter_count(*preset("gpt2")) == 124439808);
  CHECK(parameter_count(*preset("gpt2-medium")) == 354823168);
  CHECK(parameter_count(*preset("gpt2-large")) == 774030080);
  CHECK(parameter_count(*preset("gpt2-xl")) == 1557611200);
  // The seeds' count without embeddings: "GPT-2 ~ 85M".
  CHECK(parameter_count_without_embeddings(*preset("gpt2")) == 85056000);
}

TEST_CASE("ResNet-18 for CIFAR-10 has 11.17M parameters") {
  const auto r = preset("resnet18");
  REQUIRE(r);
  CHECK(r->family == Family::resnet);
  CHECK(parameter_count(*r) == 11173962);
  CHECK(flops_per_token(*r) == 0);
}

TEST_CASE("flops per token follow llm.c: 6N + 6LCT") {
  const auto m = *preset("gpt2");
  CHECK(flops_per_token(m) == Approx(6.0 * 124439808 + 6.0 * 12 * 768 * 1024));
}

TEST_CASE("an unknown preset is absent, and the names list them all") {
  CHECK_FALSE(preset("gpt3"));
  CHECK(preset_names() == "gpt2-tiny, gpt2, gpt2-medium, gpt2-large, gpt2-xl, resnet18");
}

namespace {

/// Shape options with one or two of them given.
ShapeOverrides given(std::optional<int> ShapeOverrides::*option, int value,
                     std::optional<int> ShapeOverrides::*other = nullptr, int other_value = 0) {
  ShapeOverrides shape;
  shape.*option = value;
  if (other) shape.*other = other_value;
  return shape;
}

}  // namespace

TEST_CASE("resolve_model applies the shape options to the preset, renaming it only when a value differs") {
  const auto tiny = std::get<ModelConfig>(resolve_model("gpt2-tiny", {}));
  CHECK(tiny.name == "gpt2-tiny");
  CHECK(tiny.heads == 4);
  const auto same = std::get<ModelConfig>(resolve_model("gpt2-xl", given(&ShapeOverrides::layers, 48, &ShapeOverrides::heads, 25)));
  CHECK(same.name == "gpt2-xl");
  const auto custom = std::get<ModelConfig>(resolve_model("gpt2-xl", given(&ShapeOverrides::heads, 32)));
  CHECK(custom.name == "custom");
  CHECK(custom.heads == 32);
  CHECK(custom.width == 1600);
}

TEST_CASE("resolve_model refuses what trainbench refuses, naming the options at fault") {
  const auto refusal = [](std::string_view name, const ShapeOverrides& shape) {
    const auto r = resolve_model(name, shape);
    REQUIRE(std::holds_alternative<Refusal>(r));
    return std::get<Refusal>(r);
  };
  CHECK(refusal("gpt3", {}) ==
        Refusal{"--model: \"gpt3\" is not one of gpt2-tiny, gpt2, gpt2-medium, gpt2-large, gpt2-xl, resnet18", {"model"}});
  CHECK(refusal("resnet18", given(&ShapeOverrides::seq, 64)) ==
        Refusal{"--seq shapes GPT models; resnet18 has a fixed shape", {"seq", "model"}});
  CHECK(refusal("gpt2", given(&ShapeOverrides::vocab, 0)) == Refusal{"--vocab must be at least 1, got 0", {"vocab"}});
  CHECK(refusal("gpt2", given(&ShapeOverrides::width, 100)) ==
        Refusal{"--width 100 must divide by --heads 12 (each head takes width/heads channels)", {"width", "heads"}});
}

TEST_CASE("a shape option comes from the preset exactly when it is left out") {
  CHECK(from_preset({}, "heads"));
  CHECK_FALSE(from_preset(given(&ShapeOverrides::heads, 25), "heads"));
  CHECK(from_preset(given(&ShapeOverrides::heads, 25), "layers"));
  CHECK_FALSE(from_preset({}, "tp"));  // not a shape option
}
