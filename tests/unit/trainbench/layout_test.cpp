#include <catch2/catch.hpp>

#include "trainbench/layout.h"

using namespace sweep::trainbench;

TEST_CASE("ranks order tensor index fastest, then data, then pipeline") {
  const Layout l{2, 2, 2};
  const Coordinates c = coordinates(l, 5);  // 5 = (1·2 + 0)·2 + 1
  CHECK(c.tp == 1);
  CHECK(c.dp == 0);
  CHECK(c.pp == 1);
  for (int r = 0; r < l.world(); ++r) CHECK(rank_of(l, coordinates(l, r)) == r);
}

TEST_CASE("data groups share tensor index and stage, tensor groups share replica and stage") {
  const Layout l{2, 2, 2};
  // ranks 1 and 3: tp 1, stage 0, replicas 0 and 1
  CHECK(data_group(l, 1).color == data_group(l, 3).color);
  CHECK(data_group(l, 1).key == 0);
  CHECK(data_group(l, 3).key == 1);
  CHECK(data_group(l, 1).color != data_group(l, 0).color);
  CHECK(data_group(l, 1).color != data_group(l, 5).color);
  // ranks 4 and 5: replica 0, stage 1
  CHECK(tensor_group(l, 4).color == tensor_group(l, 5).color);
  CHECK(tensor_group(l, 5).key == 1);
  CHECK(tensor_group(l, 4).color != tensor_group(l, 6).color);
}

TEST_CASE("stages take the layers in order, earlier stages one more when they do not divide") {
  CHECK(stage_layers(12, 4, 0).first == 0);
  CHECK(stage_layers(12, 4, 3).first == 9);
  CHECK(stage_layers(12, 4, 3).count == 3);
  CHECK(stage_layers(5, 2, 0).count == 3);
  CHECK(stage_layers(5, 2, 1).first == 3);
  CHECK(stage_layers(5, 2, 1).count == 2);
}

TEST_CASE("invalid layouts are rejected with the options at fault") {
  const ModelConfig gpt = *preset("gpt2-tiny");  // 2 layers, 4 heads
  CHECK(layout_errors({2, 1, 1}, 2, gpt, 8, 1).empty());
  CHECK(layout_errors({1, 2, 2}, 4, gpt, 8, 4).empty());

  const auto product = layout_errors({2, 1, 1}, 4, gpt, 8, 1);
  REQUIRE(product.size() == 1);
  CHECK(product[0].message == "--dp 2 x --tp 1 x --pp 1 = 2 ranks, but the world has 4 (their product must equal it)");
  const auto heads = layout_errors({1, 3, 1}, 3, gpt, 8, 1);
  REQUIRE(heads.size() == 1);
  CHECK(heads[0].message == "--tp 3 must divide the 4 attention heads (each tensor slice holds whole heads)");
  CHECK(heads[0].options == std::vector<std::string_view>{"tp", "heads"});
  CHECK(layout_errors({1, 8, 1}, 8, gpt, 8, 1).size() == 1);
  const auto stages = layout_errors({1, 1, 3}, 3, gpt, 8, 1);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].message == "--pp 3 stages exceed the 2 layers (every stage needs at least one)");
  CHECK(stages[0].options == std::vector<std::string_view>{"pp", "layers"});
  const auto micro = layout_errors({1, 1, 2}, 2, gpt, 6, 4);
  REQUIRE(micro.size() == 1);
  CHECK(micro[0].message == "--batch 6 does not divide into --microbatches 4");
  CHECK(micro[0].options == std::vector<std::string_view>{"batch", "microbatches"});
  CHECK(layout_errors({0, 1, 1}, 1, gpt, 8, 1).size() == 1);
  CHECK(layout_errors({1, 1, 1}, 1, *preset("resnet18"), 8, 1).empty());
  const auto resnet = layout_errors({1, 2, 1}, 2, *preset("resnet18"), 8, 1);
  REQUIRE(resnet.size() == 1);
  CHECK_THAT(resnet[0].message, Catch::StartsWith("resnet18 supports data parallelism only"));
}
