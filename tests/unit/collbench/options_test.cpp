#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "collbench/options.h"

using namespace sweep::collbench;
using sweep::comm::Backend;
using sweep::comm::Collective;
using sweep::comm::DType;
using sweep::comm::ReduceOp;

namespace {

Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "collbench");
  return parse_options(args);
}

}  // namespace

TEST_CASE("defaults and every option") {
  const auto d = parse({});
  CHECK(d.op == Collective::allreduce);
  CHECK(d.backend == Backend::mpi);
  CHECK(d.check);
  CHECK_FALSE(d.inplace);
  const auto o = parse({"--op", "reducescatter", "--backend", "gloo", "--dtype", "bf16", "--redop", "max", "-b", "1K",
                        "-e", "8G", "-f", "4", "-w", "1", "-n", "3", "--inplace", "--no-check", "--headline", "max",
                        "--timeout", "2.5", "--rendezvous", "/shared"});
  CHECK(o.op == Collective::reducescatter);
  CHECK(o.backend == Backend::gloo);
  CHECK(o.dtype == DType::bf16);
  CHECK(o.redop == ReduceOp::max);
  CHECK(o.min_bytes == 1024);
  CHECK(o.max_bytes == 8ull << 30);
  CHECK(o.factor == 4);
  CHECK(o.warmup == 1);
  CHECK(o.iters == 3);
  CHECK(o.inplace);
  CHECK_FALSE(o.check);
  CHECK(o.headline == Headline::max);
  CHECK(o.timeout.count() == 2500);
  CHECK(o.rendezvous_dir == "/shared");
  // Buffers: host memory unless --device cuda; nccl's are on the GPU whatever is said.
  CHECK_FALSE(d.on_device);
  CHECK_FALSE(o.on_device);
  CHECK(parse({"--backend", "gloo", "--device", "cuda"}).on_device);
  CHECK_FALSE(parse({"--backend", "mpi", "--device", "cpu"}).on_device);
  CHECK(parse({"--backend", "nccl"}).on_device);
  CHECK(parse({"--backend", "nccl", "--device", "cuda"}).on_device);
}

TEST_CASE("the params option is a model of N parameters in the chosen dtype") {
  const auto o = parse({"--params", "700M", "--dtype", "bf16"});
  CHECK(o.min_bytes == 1400000000u);
  CHECK(o.max_bytes == 1400000000u);
  CHECK(o.params == 700000000u);
  CHECK_THROWS_WITH(parse({"--params", "700M", "-b", "1M"}),
                    "--params sets the message size; it excludes --min-bytes and --max-bytes");
}

TEST_CASE("bad options name the option and what it expects") {
  CHECK_THROWS_WITH(parse({"--op", "allreduse"}),
                    "--op: \"allreduse\" is not one of allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv");
  CHECK_THROWS_WITH(parse({"--dtype", "fp8"}), "--dtype: \"fp8\" is not one of fp32, fp16, bf16, fp64, int32");
  CHECK_THROWS_WITH(parse({"-b", "lots"}), Catch::StartsWith("--min-bytes: \"lots\" is not a byte count"));
  CHECK_THROWS_WITH(parse({"-n", "0"}), "--iters must be >= 1, got 0");
  CHECK_THROWS_WITH(parse({"--op", "sendrecv", "--inplace"}), "--inplace: sendrecv has no in-place variant");
  CHECK_THROWS_WITH(parse({"--device", "gpu"}), "--device: \"gpu\" is not one of cpu, cuda");
  CHECK_THROWS_WITH(parse({"--backend", "nccl", "--device", "cpu"}),
                    "--backend nccl works on GPU memory: it excludes --device cpu");
  CHECK_THROWS_AS(parse({"--frobnicate"}), UsageError);
  CHECK_THROWS_AS(parse({"--help"}), HelpRequested);
  CHECK_THROWS_WITH(parse({"--version"}), Catch::Matches("collbench [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}
