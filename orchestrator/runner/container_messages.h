#pragma once
// What each container runtime prints when its program or its image is missing on a node, and the
// classification of a run's stderr by it (docs/containers.md, "Failure classes").
//
// The container check (runner/container_check.h) runs on the job's first node only. On another node a
// missing runtime or image shows only in the workload step's stderr, where the launcher (slurmstepd,
// mpirun, bash) or the runtime says so; ingest reads it back with container_failure_in.
//
// Every pattern is a POSIX ERE matched against one line (grep -E in the job script, std::regex's
// extended grammar here).
#include <optional>
#include <string>
#include <string_view>

namespace sweep::runner {

struct ContainerMessages {
  std::string_view runtime;
  std::string_view program;  // what must be on PATH on each node
  /// A line the runtime writes when the image is not on the node (or cannot be pulled there).
  std::string_view image_missing;
  /// Text every such line holds: a line without it is never matched against image_missing.
  std::string_view image_token;
};

/// The row of `runtime` (one of spec::kContainerRuntimes); Error(internal) for another name.
const ContainerMessages& container_messages(std::string_view runtime);

/// A line saying the program `program` is not on the node: slurmstepd's execve() error, Open MPI
/// mpirun's "Executable:" line, bash's "command not found".
std::string runtime_missing_ere(std::string_view program);

struct ContainerStderrFailure {
  std::string_view failure_class;  // failure::kContainerRuntime or failure::kContainerImage
  std::string line;                // the line that said so
  std::string node;                // the node srun or mpirun named, "" when none did
};

/// The first line of `text` (a run's stderr) saying that `runtime`'s program or image is missing, with
/// the node named by `srun: error: NODE: task` or mpirun's `Node: NODE` (the first such line after it,
/// else before it); none when no line says so. Every line of `text` is read, in linear time: only a line
/// holding the program's name or the row's image_token reaches a pattern, and only its first 1,024 bytes
/// (a workload's output is untrusted: no line of any length can exhaust the matcher).
std::optional<ContainerStderrFailure> container_failure_in(std::string_view runtime, std::string_view text);

}  // namespace sweep::runner
