#pragma once
// The failure classes of an attempt, as stored in runs.failure_class and as named in an experiment's
// `retries` section. The runner classifies attempts (runner/ingest.h, runner/slurm_outcome.h); the
// retry policy counts failed attempts per class. Adding a class is one row here.
#include <array>
#include <string_view>

namespace sweep::spec {

struct FailureClass {
  std::string_view retry_key;  // as written in `retries:` (Slurm's state names where there is one)
  std::string_view name;       // as stored in the database
  std::string_view meaning;
};

inline constexpr std::array<FailureClass, 15> kFailureClasses{{
    {"FAILED", "exit_code", "the workload exited with a status other than success.exit_code"},
    {"TIMEOUT", "timeout", "the run exceeded its time limit"},
    {"SIGNAL", "signal", "the workload was killed by a signal"},
    {"MISSING_METRICS", "missing_metric", "the workload succeeded but a required metric is missing"},
    {"OUT_OF_MEMORY", "out_of_memory", "the scheduler killed the job for exceeding its memory"},
    {"NODE_FAIL", "node_fail", "a node of the job failed"},
    {"CANCELLED", "cancelled", "the job was cancelled (by sweep cancel, scancel or an administrator)"},
    {"PREEMPTED", "preempted", "the job was preempted"},
    {"BOOT_FAIL", "boot_fail", "a node of the job failed to boot"},
    {"DEPENDENCY", "dependency", "the job's dependency can never be satisfied"},
    {"UNSATISFIABLE", "unsatisfiable", "the job stayed pending past --max-pending for a reason that cannot resolve"},
    {"SUBMIT", "submit", "the scheduler refused the submission"},
    {"INTERRUPTED", "interrupted", "the controller stopped while the attempt was running"},
    {"SPAWN", "spawn", "the job script could not be started"},
    {"SETUP", "setup", "a line of the experiment's or the site's setup failed before the workload started"},
}};

}  // namespace sweep::spec
