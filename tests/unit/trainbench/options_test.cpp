#include <catch2/catch.hpp>

#include <cstdlib>

#include "trainbench/options.h"

using namespace sweep::trainbench;

namespace {
Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "trainbench");
  return parse_options(args);
}
}  // namespace

TEST_CASE("defaults train gpt2-tiny on one gloo rank") {
  const Options o = parse({});
  CHECK(o.model.name == "gpt2-tiny");
  CHECK(o.layout.world() == 1);
  CHECK(o.backend == sweep::comm::Backend::gloo);
  CHECK(o.schedule == Schedule::one_f_one_b);
  CHECK(o.steps() == 20);
  CHECK(o.overlap);
  CHECK_FALSE(parse({"--no-overlap"}).overlap);
  CHECK(parse({"--no-overlap", "--overlap"}).overlap);
}

TEST_CASE("custom sizes override the preset and rename it") {
  const Options o = parse({"--model", "gpt2", "--layers", "4", "--width", "256", "--heads", "8", "--seq", "128"});
  CHECK(o.model.name == "custom");
  CHECK(o.model.layers == 4);
  CHECK(o.model.width == 256);
  CHECK(o.model.vocab == 50257);
  // The preset's own shape, given explicitly, keeps its name.
  const Options same = parse({"--model", "gpt2", "--layers", "12", "--width", "768", "--seq", "1024", "--vocab", "50257"});
  CHECK(same.model.name == "gpt2");
  CHECK(parse({"--model", "gpt2", "--layers", "12", "--width", "769", "--heads", "1"}).model.name == "custom");
}

TEST_CASE("steps, epochs and parallelism parse") {
  const Options a = parse({"--steps", "7", "--dp", "2", "--pp", "2", "--microbatches", "4", "--schedule", "gpipe"});
  CHECK(a.epochs == 1);
  CHECK(a.steps() == 7);
  CHECK(a.layout.world() == 4);
  CHECK(a.schedule == Schedule::gpipe);
  const Options b = parse({"--epochs", "3", "--steps-per-epoch", "5", "--dtype", "bf16", "--backend", "mpi"});
  CHECK(b.steps() == 15);
  CHECK(b.dtype == Precision::bf16);
  CHECK(b.grad_dtype == Precision::fp32);  // bf16 compute keeps fp32 gradients unless asked
  CHECK(parse({"--grad-dtype", "bf16"}).grad_dtype == Precision::bf16);
  CHECK(b.device == DeviceChoice::automatic);
  CHECK(parse({"--device", "cuda"}).device == DeviceChoice::cuda);
  CHECK(parse({"--device", "cpu"}).device == DeviceChoice::cpu);
  CHECK(b.backend == sweep::comm::Backend::mpi);
  CHECK_FALSE(b.backend_auto);
  CHECK(parse({"--backend", "auto"}).backend_auto);  // settled before connecting: chosen_backend()
  CHECK(b.slowdown_ms == 0);
  CHECK(parse({"--slowdown-ms", "2.5"}).slowdown_ms == 2.5);
  // The environment gives the default, so a campaign can be slowed without changing its points.
  ::setenv("TRAINBENCH_SLOWDOWN_MS", "7", 1);
  CHECK(parse({}).slowdown_ms == 7);
  CHECK(parse({"--slowdown-ms", "1"}).slowdown_ms == 1);
  ::unsetenv("TRAINBENCH_SLOWDOWN_MS");
}

TEST_CASE("the --data value names a format and a path, a bare path is a token file, nothing is synthetic") {
  CHECK(parse({}).data == DataSource{});
  CHECK(parse({"--data", ""}).data == DataSource{});  // what an experiment's '' renders
  CHECK(parse({"--data", "synthetic"}).data == DataSource{});
  CHECK(parse({"--data", "tokens.txt"}).data == DataSource{DataFormat::tokens, "tokens.txt"});
  CHECK(parse({"--data", "tokens:/w/t.txt"}).data == DataSource{DataFormat::tokens, "/w/t.txt"});
  CHECK(parse({"--data", "uint16:/w/train.bin"}).data == DataSource{DataFormat::uint16, "/w/train.bin"});
  // Only a prefix of lower-case letters, digits and '-' is a format; the path may hold colons.
  CHECK(parse({"--data", "./a:b"}).data == DataSource{DataFormat::tokens, "./a:b"});
  CHECK(parse({"--data", "/x/y:z"}).data == DataSource{DataFormat::tokens, "/x/y:z"});
  CHECK(parse({"--data", "uint16:a:b"}).data == DataSource{DataFormat::uint16, "a:b"});
  const Options r = parse({"--model", "resnet18", "--data", "cifar10:/d/cifar-10-batches-bin"});
  CHECK(r.data == DataSource{DataFormat::cifar10, "/d/cifar-10-batches-bin"});
  CHECK(describe(r.data) == "cifar10:/d/cifar-10-batches-bin");
  CHECK(describe(parse({"--data", "t.txt"}).data) == "tokens:t.txt");
}

TEST_CASE("bad options name the option and what it expects") {
  const auto fails = [](std::vector<std::string> args, const std::string& message) {
    INFO(message);
    CHECK_THROWS_WITH(parse(args), Catch::Contains(message));
  };
  fails({"--model", "gpt5"}, "--model: \"gpt5\" is not one of gpt2-tiny, gpt2, gpt2-medium");
  fails({"--schedule", "zb"}, "--schedule: \"zb\" is not one of gpipe, 1f1b");
  fails({"--dtype", "fp8"}, "--dtype: \"fp8\" is not one of fp32, bf16");
  fails({"--device", "tpu"}, "--device: \"tpu\" is not one of auto, cpu, cuda");
  fails({"--backend", "nccl", "--device", "cpu"}, "--backend nccl trains on GPUs: it excludes --device cpu");
  fails({"--grad-dtype", "fp16"}, "--grad-dtype: \"fp16\" is not one of fp32, bf16");
  fails({"--backend", "ucc"}, "--backend: \"ucc\" is not one of mpi, gloo, nccl, auto");
  fails({"--steps", "4", "--epochs", "2"}, "--steps gives the total as one epoch; it excludes --epochs");
  fails({"--steps", "2", "--warmup", "2"}, "--warmup 2 must leave at least one of the 2 steps to measure");
  fails({"--width", "100", "--heads", "3"}, "--width 100 must divide by --heads 3");
  fails({"--model", "resnet18", "--layers", "4"}, "--layers shapes GPT models; resnet18 has a fixed shape");
  fails({"--layers", "0"}, "--layers must be at least 1, got 0");
  fails({"--model", "resnet18", "--data", "tokens.txt"},
        "--data tokens:tokens.txt does not feed resnet18 (resnet18 takes cifar10:DIR or cifar10:FILE)");
  fails({"--data", "cifar10:/d"}, "--data cifar10:/d does not feed gpt2-tiny (GPT models take tokens:FILE or uint16:FILE)");
  fails({"--data", "cifar:/d"}, "--data: \"cifar\" in \"cifar:/d\" is not a data format (formats: tokens, uint16, cifar10;");
  fails({"--data", "uint16:"}, "--data: \"uint16:\" names no path after \"uint16:\"");
  fails({"--threads", "0"}, "--threads must be at least 1");
  fails({"--slowdown-ms", "-1"}, "--slowdown-ms must be from 0 to 60000");
  fails({"--batch"}, "--batch");
}

TEST_CASE("trainbench --version prints its name and sweep's version") {
  CHECK_THROWS_WITH(parse({"--version"}), Catch::Matches("trainbench [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}
