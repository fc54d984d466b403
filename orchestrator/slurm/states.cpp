#include "slurm/states.h"

#include <array>

#include "util/failure_classes.h"

namespace sweep::slurm {
namespace {

constexpr std::array<StateInfo, 24> kStates{{
    {"PENDING", Phase::queued, ""},
    {"REQUEUED", Phase::queued, ""},
    {"REQUEUE_HOLD", Phase::queued, ""},
    {"REQUEUE_FED", Phase::queued, ""},
    {"RESV_DEL_HOLD", Phase::queued, ""},
    {"CONFIGURING", Phase::running, ""},
    {"RUNNING", Phase::running, ""},
    {"COMPLETING", Phase::running, ""},
    {"SUSPENDED", Phase::running, ""},
    {"RESIZING", Phase::running, ""},
    {"SIGNALING", Phase::running, ""},
    {"STAGE_OUT", Phase::running, ""},
    {"STOPPED", Phase::running, ""},
    {"COMPLETED", Phase::finished, ""},
    {"FAILED", Phase::finished, ""},
    {"TIMEOUT", Phase::finished, failure::kTimeout},
    {"DEADLINE", Phase::finished, failure::kTimeout},
    {"OUT_OF_MEMORY", Phase::finished, failure::kOutOfMemory},
    {"NODE_FAIL", Phase::finished, failure::kNodeFail},
    {"CANCELLED", Phase::finished, failure::kCancelled},
    {"REVOKED", Phase::finished, failure::kCancelled},
    {"PREEMPTED", Phase::finished, failure::kPreempted},
    {"BOOT_FAIL", Phase::finished, failure::kBootFail},
    {"SPECIAL_EXIT", Phase::finished, ""},
}};

// Pending reasons that no amount of waiting resolves (Slurm's job_reason strings).
constexpr std::array<std::string_view, 12> kHopelessReasons{
    "ReqNodeNotAvail",     "PartitionConfig",       "PartitionNodeLimit", "PartitionTimeLimit",
    "BadConstraints",      "InvalidAccount",        "InvalidQOS",         "AccountNotAllowed",
    "QOSNotAllowed",       "PartitionDown",         "NodeDown",           "InactiveLimit",
};

/// Slurm appends details to some reasons ("ReqNodeNotAvail, UnavailableNodes:n1"): match the head.
std::string_view reason_head(std::string_view reason) {
  const std::size_t end = reason.find_first_of(", ");
  return reason.substr(0, end);
}

}  // namespace

StateInfo state_info(std::string_view state) {
  for (const StateInfo& s : kStates)
    if (s.state == state) return s;
  return StateInfo{state, Phase::running, ""};
}

bool hopeless_reason(std::string_view reason) {
  const std::string_view head = reason_head(reason);
  for (std::string_view r : kHopelessReasons)
    if (r == head) return true;
  return false;
}

bool dependency_never_satisfied(std::string_view reason) { return reason_head(reason) == "DependencyNeverSatisfied"; }

}  // namespace sweep::slurm
