#pragma once
// trainbench's `args` at one point, read as trainbench reads its command line and checked by
// trainbench's own rules (workloads/trainbench/layout_options.h: the model presets and shapes, heads
// per tensor slice, layers per pipeline stage, the batch per micro-batch), so that `sweep plan` and
// `sweep run` refuse a point that trainbench would refuse at start. The rules, the presets and the
// defaults are trainbench's; this file only maps option names onto them. Pure.
#include <vector>

#include "spec/bundled.h"

namespace sweep::spec {

/// Every reason trainbench would refuse to start with `values` (its defaults for the options left out)
/// on dp x tp x pp ranks, each with the options it is about. An integer option is read as trainbench's
/// CLI11 2.x reads it: strtoll with base 0 over the whole value (so 0x10 and 010 too), within int's
/// range, an empty value being 0; a value that does not read is refused here, naming the option. None
/// when a value the rules read is unknown before the run (trainbench checks it at start).
std::vector<BundledRefusal> trainbench_refusals(const BundledValues& values);

}  // namespace sweep::spec
