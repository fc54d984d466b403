#pragma once
// The measurement loop (the shell around the pure parts): for each size, an untimed checked call,
// then warm-up, a barrier, and the timed iterations; times and wrong counts are combined across ranks.
#include <cstdio>
#include <vector>

#include "collbench/options.h"
#include "collbench/output.h"
#include "comm/communicator.h"

namespace sweep::collbench {

/// Runs every size of `o` on `comm`; rank 0 writes the rows and metric lines to `out` as they come.
/// Returns the rows (on every rank).
std::vector<Row> run_sizes(comm::Communicator& comm, const Options& o, std::FILE* out);

}  // namespace sweep::collbench
