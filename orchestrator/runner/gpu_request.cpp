#include "runner/gpu_request.h"

#include <array>

#include <fmt/core.h>

#include "store/records.h"

namespace sweep::runner {
namespace {

/// A bundled program's option values that run it on a GPU or on NCCL, and the option's default.
struct GpuOption {
  std::string_view program;
  std::string_view option;
  std::array<std::string_view, 2> values;  // "" pads
  std::string_view default_value;
};

constexpr std::array<GpuOption, 4> kGpuOptions{{
    {"collbench", "backend", {"nccl", ""}, "mpi"},
    {"collbench", "device", {"cuda", ""}, "cpu"},
    {"trainbench", "backend", {"nccl", "auto"}, "gloo"},
    {"trainbench", "device", {"cuda", "auto"}, "auto"},
}};

bool gpu_resource(const sched::Resource& r) {
  if (r.key == "gres") return r.value.find("gpu") != std::string::npos;
  return r.key == "gpus" || r.key == "gpus-per-node" || r.key == "gpus-per-task";
}

}  // namespace

std::string gpu_request(std::span<const sched::Resource> resources, std::string_view program, const spec::BundledValues& args) {
  for (const auto& r : resources)
    if (gpu_resource(r)) return fmt::format("resources.{}={}", r.key, r.value);
  for (const GpuOption& o : kGpuOptions) {
    if (o.program != program) continue;
    const auto it = args.find(o.option);
    // A value known only at run time (a run variable) is not a request we can see.
    const std::string_view value = it == args.end() ? o.default_value : it->second ? std::string_view(*it->second) : "";
    for (std::string_view v : o.values)
      if (!v.empty() && v == value) return fmt::format("{} --{} {}", program, o.option, value);
  }
  return std::string(store::kNoGpusRequested);
}

}  // namespace sweep::runner
