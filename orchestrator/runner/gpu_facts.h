#pragma once
// The GPUs a run had, read from what nvidia-smi printed on its node: the device list of `nvidia-smi -L`
// and the banner of plain `nvidia-smi` (driver and CUDA versions). Pure: the job script (Slurm) or the
// controller (local) runs nvidia-smi; a node without it has no GPU facts, which is not an error.
#include <string_view>

#include "store/records.h"

namespace sweep::runner {

/// Provenance keys from nvidia-smi's output (either text may be empty):
/// - `gpu.count`: the "GPU <n>: <name> (UUID: ...)" lines of `nvidia-smi -L` (MIG devices under a GPU
///   are not counted again);
/// - `gpu.model`: the name when all are alike, else "<n> x <name>" for each, in order of appearance;
/// - `gpu.driver` and `gpu.cuda`: "Driver Version: X" and "CUDA Version: Y" of the banner (the newest
///   CUDA the driver supports).
/// Keys whose source is missing or unreadable are left out.
store::KeyValues gpu_facts(std::string_view nvidia_smi_list, std::string_view nvidia_smi_banner);

}  // namespace sweep::runner
