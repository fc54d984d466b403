#include "spec/resource_notation.h"

#include <fmt/core.h>

#include <array>
#include "spec/escalation.h"
#include "spec/time_limit.h"

namespace sweep::spec {
namespace {

/// What is wrong with `value` after the resource's name ("" when it is fine).
using Check = std::string (*)(std::string_view value);

std::string time_problem(std::string_view value) { return parse_time_limit(value).problem; }

bool zero_memory(std::string_view value) {
  if (!value.empty() && std::string_view("KMGTkmgt").find(value.back()) != std::string_view::npos) value.remove_suffix(1);
  return !value.empty() && value.find_first_not_of('0') == std::string_view::npos;
}

std::string memory_problem(std::string_view value) {
  if (slurm_memory_mib(value) || zero_memory(value)) return "";
  return fmt::format(" must be a memory size (MiB, or a number with K, M, G or T such as 4G; 0 for all of a node's), "
                     "got \"{}\"",
                     value);
}

struct Notation {
  std::string_view key;
  Check check;
};
constexpr std::array<Notation, 3> kNotations{{
    {"time", time_problem},
    {"mem", memory_problem},
    {"mem-per-cpu", memory_problem},
}};

}  // namespace

std::string resource_notation_error(const sched::Resource& r) {
  for (const Notation& n : kNotations) {
    if (n.key != r.key) continue;
    const std::string problem = n.check(r.value);
    return problem.empty() ? "" : fmt::format("\"resources.{}\"{}", r.key, problem);
  }
  return "";
}

}  // namespace sweep::spec
