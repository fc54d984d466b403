#include <catch2/catch.hpp>

#include "trainbench/layout_options.h"
#include "trainbench/options.h"

using namespace sweep::trainbench;

TEST_CASE("the options left out take trainbench's defaults, and those start on one rank") {
  const LayoutOptions defaults;
  const Options parsed = parse_options({"trainbench"});
  CHECK(defaults.model == parsed.model.name);
  CHECK(defaults.batch == parsed.batch);
  CHECK(defaults.microbatches == parsed.microbatches);
  CHECK(defaults.layout.world() == parsed.layout.world());
  CHECK(start_refusals(defaults, 1).empty());
}

TEST_CASE("tensor slices that split a preset's heads are refused and blamed on the model") {
  LayoutOptions o;
  o.model = "gpt2-xl";
  o.layout = {1, 2, 1};
  const auto refusals = start_refusals(o, 2);
  REQUIRE(refusals.size() == 1);
  CHECK(refusals[0].message == "--tp 2 must divide the 25 attention heads (each tensor slice holds whole heads)");
  CHECK(refusals[0].options == std::vector<std::string_view>{"tp", "model"});
  o.shape.heads = 25;  // given: the heads are at fault, not the preset
  CHECK(start_refusals(o, 2)[0].options == std::vector<std::string_view>{"tp", "heads"});
  o.shape.heads = 32;
  o.shape.width = 1600;
  CHECK(start_refusals(o, 2).empty());
}

TEST_CASE("every reason of the layout is given, in trainbench's order") {
  LayoutOptions o;  // gpt2-tiny: 2 layers, 4 heads
  o.layout = {1, 1, 3};
  o.batch = 6;
  o.microbatches = 4;
  const auto refusals = start_refusals(o, 3);
  REQUIRE(refusals.size() == 2);
  CHECK(refusals[0] == Refusal{"--pp 3 stages exceed the 2 layers (every stage needs at least one)", {"pp", "model"}});
  CHECK(refusals[1] == Refusal{"--batch 6 does not divide into --microbatches 4", {"batch", "microbatches"}});
  CHECK(start_refusals(o, 4)[0].message == "--dp 1 x --tp 1 x --pp 3 = 3 ranks, but the world has 4 (their product must equal it)");
}

TEST_CASE("a model that cannot be built is the only reason, as trainbench stops there") {
  LayoutOptions o;
  o.model = "gpt2";
  o.shape.width = 100;  // 12 heads from the preset
  o.layout = {1, 3, 5};
  const auto refusals = start_refusals(o, 7);
  REQUIRE(refusals.size() == 1);
  CHECK(refusals[0] == Refusal{"--width 100 must divide by --heads 12 (each head takes width/heads channels)",
                               {"width", "model"}});
  o.model = "resnet18";
  o.shape = {};
  o.layout = {1, 2, 1};
  CHECK(start_refusals(o, 2)[0].options == std::vector<std::string_view>{"model", "tp", "pp"});
}
