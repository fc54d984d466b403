// trainbench's output: the header states the configuration and how gradients travel, and the metric
// lines carry the figures each model family reports.
#include <catch2/catch.hpp>

#include "trainbench/options.h"
#include "trainbench/report.h"

using namespace sweep::trainbench;

namespace {

Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "trainbench");
  return parse_options(args);
}

Summary summary() {
  Summary s;
  s.version = "9.9";
  s.backend_library = "gloo x";
  s.torch_version = "libtorch y";
  s.rank_source = "none";
  s.hosts = {"h0"};
  s.parameter_hashes = {0xabcdef};
  s.step_seconds = {5, 1, 2, 3};
  s.epoch_seconds = {4, 7};
  s.losses = {5.5, 4.0};
  s.comm_bytes_per_step = 1000;
  return s;
}

}  // namespace

TEST_CASE("the header states the model, layout, precision and how gradients are all-reduced") {
  Summary s = summary();
  s.overlapped = true;
  const std::string h = header(parse({"--dtype", "bf16", "--epochs", "2", "--steps-per-epoch", "2", "--warmup", "1"}), s);
  CHECK_THAT(h, Catch::StartsWith("# trainbench 9.9 (output format 1)\n"));
  CHECK_THAT(h, Catch::Contains("# model gpt2-tiny | layers 2 | width 64 | heads 4 | seq 32 | vocab 256"));
  CHECK_THAT(h, Catch::Contains("fp32 buckets of 25 MiB, overlapping backward"));
  CHECK_THAT(h, Catch::Contains("# bf16: autocast compute"));
  CHECK_THAT(h, Catch::Contains("MFU is unknown"));
  CHECK_THAT(h, Catch::Contains("#  Rank   0 on h0 | parameters hash 0000000000abcdef"));
  s.overlapped = false;
  const std::string plain = header(parse({"--model", "resnet18"}), s);
  CHECK_THAT(plain, Catch::Contains("after backward"));
  CHECK_THAT(plain, Catch::Contains("# model resnet18 | 3x32x32 images | 10 classes"));
  CHECK_THAT(plain, !Catch::Contains("bf16"));
  CHECK_THAT(header(parse({"--grad-dtype", "bf16"}), s), Catch::Contains("gradients all-reduced in bf16 buckets of 25 MiB"));
  CHECK_THAT(h, Catch::Contains("\n# data synthetic\n"));
  CHECK_THAT(header(parse({"--model", "resnet18", "--data", "cifar10:/d/cifar"}), s), Catch::Contains("\n# data cifar10:/d/cifar\n"));
}

TEST_CASE("metric lines: throughput per family, MFU only with a peak, epoch 2 as the headline") {
  Summary s = summary();
  const Options gpt = parse({"--epochs", "2", "--steps-per-epoch", "2", "--warmup", "1", "--batch", "4"});
  const std::string lines = metric_lines(gpt, s);
  // Steps 1, 2, 3 s after the warm-up: mean 2 s, 4 samples a step.
  CHECK_THAT(lines, Catch::Contains(R"({"v": 1, "metric": "samples_per_s", "value": 2, "index": 0, "unit": "samples/s", "better": "higher"})"));
  CHECK_THAT(lines, Catch::Contains(R"("metric": "tokens_per_s", "value": 64,)"));
  CHECK_THAT(lines, Catch::Contains(R"("metric": "epoch_time_headline", "value": 7,)"));
  CHECK_THAT(lines, Catch::Contains(R"({"v": 1, "metric": "net_throughput", "value": 500, "index": 0, "unit": "B/s"})"));
  CHECK_THAT(lines, Catch::Contains(R"("metric": "epoch_time", "value": 4, "index": 0)"));
  CHECK_THAT(lines, Catch::Contains(R"("metric": "loss", "value": 4, "index": 1)"));
  CHECK_THAT(lines, !Catch::Contains("mfu") && !Catch::Contains("images_per_s"));
  CHECK_THAT(lines, Catch::Contains(R"({"v": 1, "metric": "batch", "value": 4, "index": 0, "unit": "samples"})"));
  CHECK_THAT(lines, Catch::Contains(R"({"v": 1, "metric": "dp", "value": 1, "index": 0})"));
  s.peak_flops = 1e12;
  CHECK_THAT(metric_lines(gpt, s), Catch::Contains(R"("metric": "mfu")"));
  const std::string resnet = metric_lines(parse({"--model", "resnet18", "--steps", "4", "--warmup", "1"}), summary());
  CHECK_THAT(resnet, Catch::Contains(R"("metric": "images_per_s")"));
  CHECK_THAT(resnet, !Catch::Contains("tokens_per_s"));
}
