#pragma once
// The keys of an experiment's `resources` section, in every scheduler's terms: what kind of value each
// takes. The section is validated against this table at load (spec/); each scheduler turns the
// effective values of a point into its own directives (slurm/directives.h: `#SBATCH` lines). Adding
// a resource is one row here and one in each scheduler's directive table.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace sweep::sched {

struct ResourceKey {
  enum class Kind {
    value,     // one word: VALUE
    count,     // a positive integer
    optional,  // one word, or nothing when it renders empty: the cluster's default
    flag,      // on when the value renders true (true/yes/1); nothing when false
    toggle,    // on when true, explicitly off when false, the cluster's default when empty or absent
    list,      // `extra`: each item is a raw directive of the scheduler, written as given
  };
  std::string_view name;  // as written in the experiment
  Kind kind;
};

inline constexpr std::array<ResourceKey, 19> kResourceKeys{{
    {"nodes", ResourceKey::Kind::count},
    {"ntasks", ResourceKey::Kind::count},
    {"ntasks-per-node", ResourceKey::Kind::count},
    {"cpus-per-task", ResourceKey::Kind::count},
    {"gpus", ResourceKey::Kind::count},  // per run; the local executor gives each run its own (runner/gpu_slots.h)
    {"gpus-per-node", ResourceKey::Kind::optional},
    {"gpus-per-task", ResourceKey::Kind::optional},
    {"gres", ResourceKey::Kind::optional},
    {"mem", ResourceKey::Kind::value},
    {"mem-per-cpu", ResourceKey::Kind::value},
    {"time", ResourceKey::Kind::value},
    {"partition", ResourceKey::Kind::optional},
    {"account", ResourceKey::Kind::optional},
    {"qos", ResourceKey::Kind::optional},
    {"constraint", ResourceKey::Kind::optional},
    {"reservation", ResourceKey::Kind::optional},
    {"exclusive", ResourceKey::Kind::flag},
    {"requeue", ResourceKey::Kind::toggle},
    {"extra", ResourceKey::Kind::list},
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

/// One resource of one point, its value rendered, in file order (a site's first, then the experiment's).
struct Resource {
  std::string key;
  std::string value;
  SourceLocation where;
};

/// The resources a point asks for: each key once (its last value, or for an optional key its last
/// non-empty one, so that an experiment's empty partition leaves the site's in place; `extra` items
/// all kept), in file order, without those that say "the cluster's default" (an empty optional or
/// toggle, a false flag), flags and toggles normalised to "true"/"false". Throws
/// Error(invalid_experiment) at the resource for a value that rendered empty or with whitespace, a
/// count that is not one, or a flag that is not a boolean.
std::vector<Resource> effective_resources(const std::vector<Resource>& rendered);

}  // namespace sweep::sched
