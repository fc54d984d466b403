#pragma once
// Whether a run asked for GPUs, and what asked: the `gpus_requested` provenance of each run
// (store::kGpusRequestedKey), by which reports show the GPU and NCCL facts of only the runs that could
// have used them (docs/reports.md#the-hardware-in-the-provenance). sweep cannot see which libraries a
// program loads; what a run asked for is what it can know. Pure.
#include <span>
#include <string>
#include <string_view>

#include "sched/resources.h"
#include "spec/bundled.h"

namespace sweep::runner {

/// What asked for GPUs at one point, in words: the first GPU resource it sets ("resources.gpus=2",
/// "resources.gres=gpu:4"; a `gres` counts when it names a gpu), else a bundled program's option that
/// puts it on a GPU or on NCCL ("collbench --backend nccl", "trainbench --device auto": trainbench's
/// `auto` trains on a GPU where there is one, and is its default), else store::kNoGpusRequested.
/// `program` is the bundled program's name ("" for a `command`), `args` its options rendered at the
/// point.
std::string gpu_request(std::span<const sched::Resource> resources, std::string_view program, const spec::BundledValues& args);

}  // namespace sweep::runner
