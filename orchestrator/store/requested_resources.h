#pragma once
// The resources each attempt records as provenance `resources.<key>` (its effective values, after
// escalation: runner/job_usage.h), which the efficiency view compares use against (report/efficiency.h).
// One list for the writer and the reader (docs/database.md, run_provenance).
#include <string_view>

namespace sweep::store {

inline constexpr std::string_view kRequestedResources[] = {
    "time", "mem", "mem-per-cpu", "nodes", "ntasks", "ntasks-per-node", "cpus-per-task", "gpus", "gpus-per-node"};

}  // namespace sweep::store
