#pragma once
// The keys of an experiment's `resources` section and the sbatch option each one becomes. The
// section is validated against this table at load; the Slurm job-script writer (runner/) turns the
// rendered values into `#SBATCH` lines with it. Adding a resource is one row here.
#include <array>
#include <string_view>

namespace sweep::spec {

struct ResourceKey {
  enum class Kind {
    value,     // `--option=VALUE`
    count,     // `--option=N`, N a positive integer
    optional,  // `--option=VALUE`, or nothing when VALUE renders empty: the cluster's default
    flag,   // `--option` when the value renders true (true/yes/1); nothing when false
    toggle,  // `--option` when true, `--no-option` when false, nothing (the cluster's default) when empty or absent
    list,   // `extra`: each item is a raw sbatch option, written as given
  };
  std::string_view name;    // as written in the experiment
  std::string_view option;  // the sbatch option ("" for `extra`)
  Kind kind;
};

inline constexpr std::array<ResourceKey, 18> kResourceKeys{{
    {"nodes", "--nodes", ResourceKey::Kind::count},
    {"ntasks", "--ntasks", ResourceKey::Kind::count},
    {"ntasks-per-node", "--ntasks-per-node", ResourceKey::Kind::count},
    {"cpus-per-task", "--cpus-per-task", ResourceKey::Kind::count},
    {"gpus-per-node", "--gpus-per-node", ResourceKey::Kind::optional},
    {"gpus-per-task", "--gpus-per-task", ResourceKey::Kind::optional},
    {"gres", "--gres", ResourceKey::Kind::optional},
    {"mem", "--mem", ResourceKey::Kind::value},
    {"mem-per-cpu", "--mem-per-cpu", ResourceKey::Kind::value},
    {"time", "--time", ResourceKey::Kind::value},
    {"partition", "--partition", ResourceKey::Kind::optional},
    {"account", "--account", ResourceKey::Kind::optional},
    {"qos", "--qos", ResourceKey::Kind::optional},
    {"constraint", "--constraint", ResourceKey::Kind::optional},
    {"reservation", "--reservation", ResourceKey::Kind::optional},
    {"exclusive", "--exclusive", ResourceKey::Kind::flag},
    {"requeue", "--requeue", ResourceKey::Kind::toggle},
    {"extra", "", ResourceKey::Kind::list},
}};

/// Whether `text` is a positive decimal integer of at most 9 digits (a `count` resource's value).
constexpr bool is_count(std::string_view text) {
  if (text.empty() || text.size() > 9 || text[0] == '0') return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

/// The row for `name`, or nullptr.
constexpr const ResourceKey* find_resource_key(std::string_view name) {
  for (const ResourceKey& k : kResourceKeys)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace sweep::spec
