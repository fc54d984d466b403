#pragma once
// Helpers of the workload tests: launching real ranks and reading the metric lines they print.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "e2e/harness.h"

namespace workloads {

/// `mpirun -np N collbench ARGS` (as root when need be, without core binding so that gloo's I/O thread
/// does not share a core with its rank), run in a scratch directory that is also its Open MPI session
/// directory base (collbench_harness.cpp says why).
e2e::Result mpirun_collbench(int ranks, const std::string& args);

/// `mpirun -np N PROGRAM ARGS`, as mpirun_collbench.
e2e::Result mpirun(const std::string& program, int ranks, const std::string& args);

/// The metric lines of collbench's output, by "metric" name then index.
std::map<std::string, std::map<int, nlohmann::json>> metric_lines(const std::string& out);

}  // namespace workloads
