// trainbench: a training benchmark for GPT-2 and ResNet-18 with data, tensor and pipeline parallelism
// over the backends of workloads/comm. Exit codes: 0 done, 1 runtime error, 2 usage error (including
// a layout that cannot run, reported before any work starts).
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "comm/communicator.h"
#include "program/program.h"
#include "trainbench/comm_model.h"
#include "trainbench/engine.h"
#include "trainbench/gpu_peaks.h"
#include "trainbench/options.h"
#include "trainbench/report.h"

#ifndef SWEEP_VERSION
#define SWEEP_VERSION "0"
#endif

namespace {

using namespace sweep;
using namespace sweep::trainbench;

// Errors end the process at once (program::fail): a rank that returned normally would wait for peers
// that wait for it.
[[noreturn]] void fail(int code, const std::string& who, const std::string& message) {
  program::fail("trainbench", code, who, message);
}

// Element-wise op over all ranks of `values` (same length everywhere).
std::vector<double> combine(comm::Communicator& world, std::vector<double> values, comm::ReduceOp op) {
  if (!values.empty())
    world.all_reduce(values.data(), values.data(), values.size(), comm::DType::fp64, op);
  return values;
}

Summary summarize(const Options& o, comm::Communicator& world, const RankResult& r, const comm::RankInfo& rank) {
  const Coordinates c = coordinates(o.layout, world.rank());
  Summary s;
  s.version = SWEEP_VERSION;
  s.backend_library = world.library_version();
  s.torch_version = "libtorch " + r.torch_version;
  s.rank_source = rank.source;
  s.hosts = world.hosts();
  s.parameter_hashes.resize(static_cast<std::size_t>(world.size()));
  world.all_gather(&r.parameter_hash, s.parameter_hashes.data(), 2, comm::DType::int32);  // 64 bits as 2 x int32
  s.step_seconds = combine(world, r.step_seconds, comm::ReduceOp::max);
  s.epoch_seconds = combine(world, r.epoch_seconds, comm::ReduceOp::max);
  // Losses live on the last stage; tensor slice 0 of each replica contributes, averaged over replicas.
  const bool reports_loss = c.pp == o.layout.pp - 1 && c.tp == 0;
  std::vector<double> losses(r.losses.size(), 0.0);
  if (reports_loss)
    for (std::size_t i = 0; i < losses.size(); ++i) losses[i] = r.losses[i] / o.layout.dp;
  s.losses = combine(world, losses, comm::ReduceOp::sum);
  s.peak_memory_mib = combine(world, {r.peak_memory_mib}, comm::ReduceOp::max)[0];
  const auto gpu = combine(world, {r.gpu_peak_allocated_mib, r.gpu_peak_reserved_mib}, comm::ReduceOp::max);
  if (!r.device_name.empty()) s.gpu_peak_memory_mib = {gpu[0], gpu[1]};
  s.device = r.device;
  s.comm_bytes_per_step = r.comm_bytes_per_step;
  s.comm_model = predict_comm(o.model, o.layout, c, o.batch, o.microbatches,
                              {.activation = o.dtype == Precision::bf16 ? 2 : 4,
                               .gradient = o.grad_dtype == Precision::bf16 ? 2 : 4});
  s.comm_seconds_per_step = r.comm_seconds_per_step;
  s.exposed_comm_seconds_per_step = r.exposed_comm_seconds_per_step;
  s.overlapped = r.overlapped;
  if (o.peak_tflops > 0) {
    s.peak_flops = o.peak_tflops * 1e12;
    s.peak_flops_source = "given by --peak-tflops";
  } else if (const auto peak = gpu_peak(r.device_name)) {
    const bool bf16 = o.dtype == Precision::bf16;
    s.peak_flops = (bf16 ? peak->bf16_tflops : peak->fp32_tflops) * 1e12;
    s.peak_flops_source = std::string(bf16 ? "dense bf16" : "fp32") + " of " + peak->source;
  }
  return s;
}

// Every step allocates and frees the same large tensors. glibc's defaults hand them back to the kernel
// (mmap/munmap, heap trimming), so each step faults their pages in again: on 2 cores that doubled the
// step time of a 12M-parameter GPT (bench/README.md). Keep them in the process instead: blocks below
// glibc's largest mmap threshold (32 MiB) come from the heap, and the heap is never trimmed.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

// The rank from the environment, refused (exit 2) with every reason when the layout cannot run on the world.
comm::RankInfo checked_rank(const Options& o) {
  comm::RankInfo rank;
  try {
    rank = comm::discover_rank_from_environment();
  } catch (const std::exception& e) {
    fail(2, "error: ", e.what());
  }
  const int world_size = rank.source == "none" ? 1 : rank.world_size;
  if (const auto errors = layout_errors(o.layout, world_size, o.model, o.batch, o.microbatches); !errors.empty()) {
    std::string message;
    for (const auto& e : errors) message += (message.empty() ? "" : "; ") + e.message;
    fail(2, "error: ", message);
  }
  return rank;
}

std::unique_ptr<comm::Communicator> connect(const Options& o, const comm::RankInfo& rank) {
  comm::Options copts;
  copts.timeout = o.timeout;
  copts.rendezvous_dir = o.rendezvous_dir;
  copts.concurrent = o.overlap && o.layout.dp > 1;
  try {
    return comm::connect(o.backend, rank, copts);
  } catch (const std::exception& e) {
    fail(1, "rank " + std::to_string(rank.rank) + ": error: ", e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory();
  Options o;
  try {
    o = parse_options(std::vector<std::string>(argv, argv + argc));
  } catch (const HelpRequested& help) {
    std::fputs(help.what(), stdout);
    return 0;
  } catch (const UsageError& e) {
    fail(2, "error: ", e.what());
  }
  o.backend = chosen_backend(o);
  const comm::RankInfo rank = checked_rank(o);
  if (const std::string problem = device_problem(o); !problem.empty()) fail(1, "error: ", problem);
  std::unique_ptr<comm::Communicator> world = connect(o, rank);
  try {
    Groups groups = make_groups(*world, o.layout);
    const RankResult result = train(o, groups, rank.local_rank);
    const Summary summary = summarize(o, *world, result, rank);
    if (world->rank() == 0) {
      std::fputs(header(o, summary).c_str(), stdout);
      std::fputs(metric_lines(o, summary).c_str(), stdout);
      std::fflush(stdout);
    }
    world->barrier();
  } catch (const std::exception& e) {
    fail(1, "rank " + std::to_string(world->rank()) + ": error: ", e.what());
  }
  world.reset();
  return 0;
}
