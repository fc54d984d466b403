#include "runner/executors.h"

#include <array>
#include <utility>

#include "slurm/scheduler.h"
#include "util/error.h"

namespace sweep::runner {
namespace {

using Factory = std::unique_ptr<sched::Scheduler> (*)();

constexpr std::array<std::pair<std::string_view, Factory>, 1> kSchedulers{{
    {"slurm", slurm::make_scheduler},
}};

}  // namespace

std::unique_ptr<sched::Scheduler> make_scheduler(std::string_view executor) {
  for (const auto& [name, make] : kSchedulers)
    if (name == executor) return make();
  throw Error(ErrorKind::internal, "no scheduler for executor " + std::string(executor));
}

}  // namespace sweep::runner
