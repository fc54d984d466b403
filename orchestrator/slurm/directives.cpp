#include "slurm/directives.h"

#include <fmt/core.h>

#include <array>
#include <utility>

#include "util/error.h"

namespace sweep::slurm {
namespace {

// The sbatch option of every resource key but `extra` (whose items are sbatch options already).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kOptions{{
    {"nodes", "--nodes"},
    {"ntasks", "--ntasks"},
    {"ntasks-per-node", "--ntasks-per-node"},
    {"cpus-per-task", "--cpus-per-task"},
    {"gpus", "--gpus"},
    {"gpus-per-node", "--gpus-per-node"},
    {"gpus-per-task", "--gpus-per-task"},
    {"gres", "--gres"},
    {"mem", "--mem"},
    {"mem-per-cpu", "--mem-per-cpu"},
    {"time", "--time"},
    {"partition", "--partition"},
    {"account", "--account"},
    {"qos", "--qos"},
    {"constraint", "--constraint"},
    {"reservation", "--reservation"},
    {"exclusive", "--exclusive"},
    {"requeue", "--requeue"},
}};

std::string_view option_of(const std::string& key) {
  for (const auto& [name, option] : kOptions)
    if (name == key) return option;
  throw Error(ErrorKind::internal, "no sbatch option for resource " + key);
}

}  // namespace

std::vector<std::string> sbatch_options(const std::vector<sched::Resource>& effective) {
  std::vector<std::string> out;
  for (const sched::Resource& r : effective) {
    const sched::ResourceKey* key = sched::find_resource_key(r.key);
    if (!key) throw Error(ErrorKind::internal, "unknown resource " + r.key);
    switch (key->kind) {
      case sched::ResourceKey::Kind::list:
        out.push_back(r.value);
        break;
      case sched::ResourceKey::Kind::flag:
        out.emplace_back(option_of(r.key));
        break;
      case sched::ResourceKey::Kind::toggle:
        out.push_back(r.value == "true" ? std::string(option_of(r.key)) : "--no-" + std::string(option_of(r.key).substr(2)));
        break;
      default:
        out.push_back(fmt::format("{}={}", option_of(r.key), r.value));
    }
  }
  return out;
}

}  // namespace sweep::slurm
