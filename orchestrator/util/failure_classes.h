#pragma once
// The failure classes of an attempt, as stored in runs.failure_class and as named in an experiment's
// `retries` section: the one source for the loader (spec/), the drivers (runner/) and the schedulers'
// state tables (slurm/states.cpp). Adding a class is a name here and one row of the table.
#include <array>
#include <string_view>

namespace sweep::failure {

inline constexpr std::string_view kExitCode = "exit_code";
inline constexpr std::string_view kTimeout = "timeout";
inline constexpr std::string_view kSignal = "signal";
inline constexpr std::string_view kMissingMetric = "missing_metric";
inline constexpr std::string_view kOutOfMemory = "out_of_memory";
inline constexpr std::string_view kNodeFail = "node_fail";
inline constexpr std::string_view kCancelled = "cancelled";
inline constexpr std::string_view kPreempted = "preempted";
inline constexpr std::string_view kBootFail = "boot_fail";
inline constexpr std::string_view kDependency = "dependency";
inline constexpr std::string_view kUnsatisfiable = "unsatisfiable";
inline constexpr std::string_view kSubmit = "submit";
inline constexpr std::string_view kInterrupted = "interrupted";
inline constexpr std::string_view kSpawn = "spawn";
inline constexpr std::string_view kSetup = "setup";
inline constexpr std::string_view kCriterion = "criterion";
inline constexpr std::string_view kUnreducedMetric = "unreduced_metric";
inline constexpr std::string_view kContainerRuntime = "container_runtime";
inline constexpr std::string_view kContainerImage = "container_image";
inline constexpr std::string_view kContainerGpu = "container_gpu";
inline constexpr std::string_view kContainer = "container";

struct FailureClass {
  std::string_view retry_key;  // as written in `retries:` (Slurm's state names where there is one)
  std::string_view name;       // as stored in the database
  std::string_view meaning;
};

inline constexpr std::array<FailureClass, 21> kFailureClasses{{
    {"FAILED", kExitCode, "the workload exited with a status other than success.exit_code"},
    {"TIMEOUT", kTimeout, "the run exceeded its time limit"},
    {"SIGNAL", kSignal, "the workload was killed by a signal"},
    {"MISSING_METRICS", kMissingMetric, "the workload succeeded but a required metric is missing"},
    {"OUT_OF_MEMORY", kOutOfMemory, "the scheduler killed the job for exceeding its memory"},
    {"NODE_FAIL", kNodeFail, "a node of the job failed"},
    {"CANCELLED", kCancelled, "the job was cancelled (by sweep cancel, scancel or an administrator)"},
    {"PREEMPTED", kPreempted, "the job was preempted"},
    {"BOOT_FAIL", kBootFail, "a node of the job failed to boot"},
    {"DEPENDENCY", kDependency, "the job's dependency can never be satisfied"},
    {"UNSATISFIABLE", kUnsatisfiable, "the job stayed pending past --max-pending for a reason that cannot resolve"},
    {"SUBMIT", kSubmit, "the scheduler refused the submission"},
    {"INTERRUPTED", kInterrupted, "the controller stopped while the attempt was running"},
    {"SPAWN", kSpawn, "the job script could not be started"},
    {"CRITERION", kCriterion, "the workload succeeded but its metrics fail the experiment's success.where"},
    {"SETUP", kSetup, "a line of the experiment's or the site's setup failed before the workload started"},
    {"UNREDUCED_METRIC", kUnreducedMetric,
     "a metric rule without `reduce` matched more than once in the run's output, so its value is ambiguous"},
    // The job script's container check (runner/container_check.h), before the workload started.
    {"CONTAINER_RUNTIME", kContainerRuntime, "the container runtime's program is not found on the node"},
    {"CONTAINER_IMAGE", kContainerImage, "the container image is missing (no such file or directory, or a podman image not present)"},
    {"CONTAINER_GPU", kContainerGpu, "the container was to have GPUs (gpus: true), and no NVIDIA device is inside it"},
    {"CONTAINER", kContainer, "the container did not start, for another reason (the runtime's message)"},
}};

/// The `retries:` key of the class stored as `name` ("TIMEOUT" for kTimeout); "" for a name not in the table.
constexpr std::string_view retry_key_of(std::string_view name) {
  for (const FailureClass& c : kFailureClasses)
    if (c.name == name) return c.retry_key;
  return {};
}

}  // namespace sweep::failure
