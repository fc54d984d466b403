#pragma once
// The sampler's life (docs/telemetry.md, "The sampler"): the first sample at t = 0 with the header,
// one sample per interval, and on SIGTERM or SIGINT a last sample and `end`. In the foreground, or
// with --daemon in a child process whose pid is printed once the first sample is in the file. The
// child, not the launcher, opens the sources and takes the first sample: NVML is initialised in the
// process that samples with it, never carried across a fork.
#include "telemetry/sampler_options.h"

namespace sweep::telemetry {

/// Samples into options.out until SIGTERM or SIGINT; returns the exit status (0 after `end` is
/// written). --daemon: returns in the launcher once the first sample is written (0, the child's pid on
/// stdout) or the child failed to start (the child's error on stderr, its exit status). Error(io) or
/// Error(usage) before the first sample: nothing sampled.
int run_sampler(const SamplerOptions& options);

}  // namespace sweep::telemetry
