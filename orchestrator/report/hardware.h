#pragma once
// The hardware a campaign ran on, for the reports' provenance: what its runs' provenance recorded
// (runner/provenance.h, runner/gpu_facts.h) about the CPU, the GPUs and NCCL, each value with how many
// runs had it. Pure.
#include <cstddef>
#include <string>
#include <vector>

#include "store/records.h"

namespace sweep::report {

/// The provenance keys the summary reads, in the order it shows them: the first (cpu_model) is read
/// over every run, the others (the GPU's and NCCL's) over the runs that asked for GPUs.
const std::vector<std::string>& hardware_keys();

struct HardwareFact {
  std::string label;  // "CPU", "GPU", "GPUs on the node", "GPU driver", "CUDA (driver)", "NCCL"
  std::string text;   // "NVIDIA H200", or "2.28.9 (8 runs), 2.27.3 (4 runs)" where runs differ
};

/// One fact per key that some run recorded, in hardware_keys() order. `counts` may hold
/// store::kGpusRequestedKey: then the GPU and NCCL facts are over only the runs that asked for GPUs
/// (their counts must be too: report/campaign_data.h), and none is shown when no run asked; without
/// it (a campaign from before runs said) they are over all `runs`. A value all the runs share is
/// written alone; otherwise each value with its run count, and "none recorded (n runs)" for the runs
/// without it. When no GPU fact is shown, one says why: {"GPU", "none requested"} when no run asked
/// for GPUs, else {"GPU", "none recorded"}.
std::vector<HardwareFact> hardware_facts(const std::vector<store::ProvenanceCount>& counts, std::size_t runs);

}  // namespace sweep::report
