#include <catch2/catch.hpp>

#include "spec/bundled.h"
#include "spec/trainbench_args.h"

using namespace sweep::spec;

TEST_CASE("trainbench's args are refused by trainbench's own rules, with its defaults for those left out") {
  CHECK(trainbench_refusals({}).empty());
  CHECK(trainbench_refusals({{"model", "gpt2-xl"}, {"tp", "5"}, {"dp", "2"}, {"overlap", "false"}}).empty());
  CHECK(trainbench_refusals({{"model", "gpt2-xl"}, {"tp", "2"}}) ==
        std::vector<BundledRefusal>{
            {"--tp 2 must divide the 25 attention heads (each tensor slice holds whole heads)", {"tp", "model"}}});
  CHECK(trainbench_refusals({{"heads", "25"}, {"width", "1600"}, {"tp", "2"}}) ==
        std::vector<BundledRefusal>{
            {"--tp 2 must divide the 25 attention heads (each tensor slice holds whole heads)", {"tp", "heads"}}});
  // gpt2-tiny's 2 layers and trainbench's batch of 8.
  CHECK(trainbench_refusals({{"pp", "3"}, {"microbatches", "3"}}) ==
        std::vector<BundledRefusal>{{"--pp 3 stages exceed the 2 layers (every stage needs at least one)", {"pp", "model"}},
                                    {"--batch 8 does not divide into --microbatches 3", {"batch", "microbatches"}}});
  CHECK(trainbench_refusals({{"model", "resnet18"}, {"layers", "4"}}) ==
        std::vector<BundledRefusal>{{"--layers shapes GPT models; resnet18 has a fixed shape", {"layers", "model"}}});
  CHECK(trainbench_refusals({{"model", "gpt5"}})[0].options == std::vector<std::string>{"model"});
}

TEST_CASE("trainbench's integers read as its command line reads them") {
  CHECK(trainbench_refusals({{"tp", "0x2"}, {"model", "gpt2-medium"}}).empty());  // 16 heads
  CHECK(trainbench_refusals({{"batch", "010"}, {"microbatches", "8"}}).empty());  // octal 8, as strtoll reads it
  CHECK(trainbench_refusals({{"batch", ""}}) ==
        std::vector<BundledRefusal>{{"--batch 0 must be at least 1", {"batch"}}});  // CLI11: empty is 0
  CHECK(trainbench_refusals({{"heads", "4x"}}) ==
        std::vector<BundledRefusal>{{"--heads: \"4x\" is not an integer", {"heads"}}});
  CHECK(trainbench_refusals({{"dp", "4294967298"}})[0].message == "--dp: \"4294967298\" is not an integer");
}

TEST_CASE("trainbench's args that are known only at run time leave the check to trainbench") {
  CHECK(trainbench_refusals({{"model", "gpt2-xl"}, {"tp", std::nullopt}}).empty());
  CHECK(trainbench_refusals({{"model", std::nullopt}, {"tp", "3"}}).empty());
  CHECK_FALSE(trainbench_refusals({{"model", "gpt2-xl"}, {"tp", "2"}, {"rendezvous", std::nullopt}}).empty());
}

TEST_CASE("the bundled table gives trainbench its refusals and collbench none") {
  REQUIRE(find_bundled("trainbench"));
  CHECK(find_bundled("trainbench")->refusals == &trainbench_refusals);
  CHECK(find_bundled("collbench")->refusals == nullptr);
}
