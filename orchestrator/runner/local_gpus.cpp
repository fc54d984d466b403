#include "runner/local_gpus.h"

#include <fmt/core.h>

#include <cstdlib>

#include "exec/capture.h"
#include "matrix/expand.h"
#include "util/error.h"

namespace sweep::runner {
namespace {

/// The `gpus` resource of a point: 0 when it sets none. The value is a count (sched/resources.h),
/// checked when the plan was built.
std::size_t gpus_of(const CampaignPlan& plan, const matrix::Point& point) {
  for (const sched::Resource& r : plan.resources(point))
    if (r.key == "gpus") return static_cast<std::size_t>(std::stoul(r.value));
  return 0;
}

/// Where the experiment (or the site) writes `gpus`, for the error.
SourceLocation gpus_where(const spec::Experiment& experiment) {
  for (const auto& r : experiment.resources)
    if (r.key == "gpus") return r.where;
  return {};
}

}  // namespace

LocalGpus local_gpus(const CampaignPlan& plan) {
  LocalGpus out;
  const matrix::Point* widest = nullptr;
  for (const matrix::Point& point : plan.points())
    if (const std::size_t n = gpus_of(plan, point); n > 0) {
      out.demand[point.id] = n;
      if (!widest || n > out.demand[widest->id]) widest = &point;
    }
  if (!widest) return out;
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::optional<std::string_view> given = env ? std::optional<std::string_view>(env) : std::nullopt;
  std::string list;
  if (!given)
    if (const auto smi = exec::capture({"nvidia-smi", "-L"}); smi && smi->exit_code == 0) list = smi->out;
  std::vector<std::string> gpus = visible_gpus(given, list);
  const std::size_t most = out.demand[widest->id];
  if (most > gpus.size())
    fail_at(gpus_where(plan.experiment()),
                fmt::format("resources.gpus asks for {} GPU{} per run at the point {}, but this machine has {} to give "
                            "({}); lower resources.gpus, or name the GPUs to use with CUDA_VISIBLE_DEVICES",
                            most, most == 1 ? "" : "s", matrix::describe_point(plan.schema(), widest->values),
                            gpus.size(), gpu_source(given, gpus.size())));
  out.slots.emplace(std::move(gpus));
  return out;
}

}  // namespace sweep::runner
