#pragma once
// The job script's container check, {{{container_check}}} (job script format 1; docs/containers.md,
// "The job script"): shell text that runs in the job's shell on the job's first node, after
// {{{environment}}} (so `module load apptainer` in a setup line counts) and before the network counters,
// the telemetry sampler and the workload. Pure.
//
// Contract of the text:
//   - Finds the runtime's program (pyxis: srun, whose --help lists --container-image) and records its
//     version; checks the image (a file or directory path is there; podman: `podman image exists`) and
//     its id (a path: the bundled `sweep-image-id --verbose --cache <results root>/.sweep-image-ids PATH`,
//     empty when that program is absent or fails, its failure recorded as image_id_error=<status: last
//     line>; podman: `podman image inspect`; a reference pyxis or apptainer pulls: empty); writes
//     provenance/container (format 1). Every step's stderr is appended to ./container_check.log, which
//     the check empties first.
//   - Starts the container once with the point's own words running a `/bin/sh -c '...'` that prints one
//     NAME=VALUE line for each variable of the MPI, UCX, NCCL, PMIx, libfabric, CUDA and NVIDIA names that
//     is really set, its value's line breaks folded to spaces (so no value forges a line), then the
//     marker `sweep-gpu-device` when /dev/nvidiactl is there: its stderr is appended to
//     ./container_check.log, those lines (secret-looking names masked as in comm_env) to
//     provenance/container_env; with gpus, the marker line must be there. A failed start whose log
//     holds the runtime's image-missing message (runner/container_messages.h) is CONTAINER_IMAGE.
//   - On a failure, writes ./container_failed (format 1: class, the retry key of util/failure_classes.h;
//     text, on one line, with the runtime's message and the node) and exits the script, so the workload
//     does not run: status 127 (no runtime), 2 (no image), the runtime's status (it did not start) or 1
//     (no GPU). runner/ingest reads the file into the attempt's failure.
//   - Charliecloud: exports USER (as `id -un`) where it is unset, which ch-run requires.
#include <string>

#include "runner/container_launch.h"

namespace sweep::runner {

inline constexpr const char* kContainerFailedFile = "container_failed";
inline constexpr const char* kContainerCheckLog = "container_check.log";
/// The provenance file the check writes (format 1) and the format it has.
inline constexpr const char* kContainerProvenanceFile = "container";
inline constexpr int kContainerProvenanceFormat = 1;

/// Where the check finds what it runs besides the runtime.
struct ContainerCheckPaths {
  std::string image_id_program;  // the bundled sweep-image-id (runner/bundled_path.h)
  /// <results root>/.sweep-image-ids: the run root's parent, shared by the campaigns of one database
  /// (sweep-image-id makes it 0700 when missing).
  std::string image_id_cache;
};

/// How the check takes the image: `file`/`directory` are decided on the node, `reference` (a registry
/// reference or a name the runtime resolves: docker://..., nvcr.io#..., a ch-image storage name) and
/// `podman` (podman's own storage) are known from the text.
std::string image_kind_rule(const RenderedContainer& c);

/// The text described above, for `c` and its words (container_words(c)); "" when no container is used.
std::string container_check(const RenderedContainer& c, const ContainerWords& words, const ContainerCheckPaths& paths);

}  // namespace sweep::runner
