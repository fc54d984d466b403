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
