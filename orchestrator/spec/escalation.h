#pragma once
// `escalate`: resources that grow on retry. After each attempt that failed for lack of time (TIMEOUT)
// or of memory (OUT_OF_MEMORY), the next attempt of the run asks for `factor` times as much, never more
// than `max`. Pure: memory in sbatch's notation (time: spec/time_limit.h) and the arithmetic (the runner rewrites the
// attempt's #SBATCH options with them: runner/escalation.h).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "util/error.h"
#include "util/failure_classes.h"

namespace sweep::spec {

struct Escalation {
  std::string resource;       // time | mem | mem-per-cpu
  std::string failure_class;  // the class that triggers it: timeout | out_of_memory (util/failure_classes.h)
  double factor = 2;          // > 1
  double max = 0;             // the bound: seconds for time, MiB for mem and mem-per-cpu
  SourceLocation where;
};

/// The resources that can escalate and the failure class that triggers each.
struct EscalatingResource {
  std::string_view resource;
  std::string_view failure_class;
  std::string_view retry_key;  // as written in `retries`
};
inline constexpr std::array<EscalatingResource, 3> kEscalatingResources{{
    {"time", failure::kTimeout, failure::retry_key_of(failure::kTimeout)},
    {"mem", failure::kOutOfMemory, failure::retry_key_of(failure::kOutOfMemory)},
    {"mem-per-cpu", failure::kOutOfMemory, failure::retry_key_of(failure::kOutOfMemory)},
}};

/// MiB in an sbatch --mem value: a number with an optional unit K, M (the default), G or T.
/// nullopt when malformed.
std::optional<double> slurm_memory_mib(std::string_view text);
/// MiB as an sbatch memory value ("8192M", rounded up to a MiB).
std::string slurm_memory_text(double mib);

/// The amount after `failures` failed attempts: `base` x factor^failures, at most the bound (and never
/// less than `base`, when the experiment already asks for more than the bound).
double escalated(double base, const Escalation& e, int failures);

}  // namespace sweep::spec
