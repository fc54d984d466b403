// The only user of CLI11 among the workloads' collbench module.
#include "collbench/options.h"

#include <array>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "collbench/collective.h"
#include "collbench/sizes.h"

#ifndef SWEEP_VERSION
#define SWEEP_VERSION "0"  // set by CMake
#endif

namespace sweep::collbench {
namespace {

constexpr std::array<std::pair<Headline, std::string_view>, 3> kHeadlines{{
    {Headline::min, "min"}, {Headline::avg, "avg"}, {Headline::max, "max"}}};

template <typename T>
T parse_name(const std::string& option, const std::string& text, std::optional<T> (*parse)(std::string_view),
             const std::string& choices) {
  if (auto value = parse(text)) return *value;
  throw UsageError(option + ": \"" + text + "\" is not one of " + choices);
}

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  if (auto bytes = parse_bytes(text)) return *bytes;
  throw UsageError(option + ": \"" + text + "\" is not a byte count (examples: 1024, 64K, 64M, 8G)");
}

std::optional<Headline> parse_headline(std::string_view text) {
  for (const auto& [h, name] : kHeadlines)
    if (name == text) return h;
  return std::nullopt;
}

struct Raw {
  std::string op = "allreduce", backend = "mpi", dtype = "fp32", redop = "sum", headline = "avg", device;
  std::string min_bytes, max_bytes, params;
  double timeout_s = 60;
};

void define(CLI::App& app, Raw& raw, Options& o) {
  app.add_option("--op", raw.op, "allreduce|allgather|reducescatter|broadcast|alltoall|sendrecv");
  app.add_option("--backend", raw.backend, "mpi|gloo|nccl");
  app.add_option("--device", raw.device, "cpu|cuda: where the buffers live (default: cuda for nccl, else cpu)");
  app.add_option("--dtype", raw.dtype, "fp32|fp16|bf16|fp64|int32");
  app.add_option("--redop", raw.redop, "sum|avg|max (reducing collectives)");
  app.add_option("-b,--min-bytes", raw.min_bytes, "smallest message size (default 32M)");
  app.add_option("-e,--max-bytes", raw.max_bytes, "largest message size (default: --min-bytes)");
  app.add_option("-f,--factor", o.factor, "size multiplier between steps (default 2)");
  app.add_option("-w,--warmup", o.warmup, "untimed iterations per size (default 5)");
  app.add_option("-n,--iters", o.iters, "timed iterations per size (default 20)");
  app.add_flag("--inplace", o.inplace, "also measure in place (the in-place columns)");
  app.add_flag("--check,!--no-check", o.check, "check results exactly (default on)");
  app.add_option("-r,--root", o.root, "broadcast root (default 0)");
  app.add_option("--headline", raw.headline, "time across ranks that algbw/busbw use: min|avg|max (default avg)");
  app.add_option("--params", raw.params, "benchmark one all-reduce of a model with N parameters (700M, 1.5B)");
  app.add_option("--timeout", raw.timeout_s, "seconds to wait for peers (default 60)");
  app.add_option("--rendezvous", o.rendezvous_dir, "gloo/nccl: a directory shared by all ranks (default: .)");
}

void resolve(const Raw& raw, Options& o) {
  o.op = parse_name<comm::Collective>("--op", raw.op, comm::parse_collective,
                                      "allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv");
  if (o.op == comm::Collective::barrier) throw UsageError("--op: \"barrier\" moves no data; choose a collective");
  o.backend = parse_name<comm::Backend>("--backend", raw.backend, comm::parse_backend, "mpi, gloo, nccl");
  if (!raw.device.empty() && raw.device != "cpu" && raw.device != "cuda")
    throw UsageError("--device: \"" + raw.device + "\" is not one of cpu, cuda");
  o.on_device = raw.device == "cuda" || (raw.device.empty() && o.backend == comm::Backend::nccl);
  if (o.backend == comm::Backend::nccl && !o.on_device)
    throw UsageError("--backend nccl works on GPU memory: it excludes --device cpu");
  o.dtype = parse_name<comm::DType>("--dtype", raw.dtype, comm::parse_dtype, comm::dtype_choices());
  o.redop = parse_name<comm::ReduceOp>("--redop", raw.redop, comm::parse_reduce_op, "sum, avg, max");
  o.headline = parse_name<Headline>("--headline", raw.headline, parse_headline, "min, avg, max");
  if (!raw.min_bytes.empty()) o.min_bytes = o.max_bytes = parse_size("--min-bytes", raw.min_bytes);
  if (!raw.max_bytes.empty()) o.max_bytes = parse_size("--max-bytes", raw.max_bytes);
  if (!raw.params.empty()) {
    const auto n = parse_count(raw.params);
    if (!n || *n == 0) throw UsageError("--params: \"" + raw.params + "\" is not a parameter count (examples: 700M, 1.5B)");
    if (!raw.min_bytes.empty() || !raw.max_bytes.empty())
      throw UsageError("--params sets the message size; it excludes --min-bytes and --max-bytes");
    o.params = *n;
    o.min_bytes = o.max_bytes = *n * comm::size_of(o.dtype);
  }
  if (o.warmup < 0) throw UsageError("--warmup must be >= 0, got " + std::to_string(o.warmup));
  if (o.iters < 1) throw UsageError("--iters must be >= 1, got " + std::to_string(o.iters));
  if (!(raw.timeout_s > 0)) throw UsageError("--timeout must be positive seconds");
  o.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(raw.timeout_s * 1000));
  if (o.inplace && collective(o.op).in_place == InPlace::none)
    throw UsageError(fmt::format("--inplace: {} has no in-place variant", comm::name_of(o.op)));
  try {
    (void)size_steps(o.min_bytes, o.max_bytes, o.factor);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

std::string_view name_of(Headline headline) { return kHeadlines[static_cast<std::size_t>(headline)].second; }

Options parse_options(const std::vector<std::string>& args) {
  CLI::App app("collbench: collective-communication benchmark in the style of nccl-tests", "collbench");
  Options o;
  Raw raw;
  define(app, raw, o);
  program::parse_command_line(app, args, "collbench", SWEEP_VERSION);
  resolve(raw, o);
  return o;
}

}  // namespace sweep::collbench
