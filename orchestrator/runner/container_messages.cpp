// The runtimes' messages for a missing program or image, one table row per runtime.
#include "runner/container_messages.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <regex>
#include <vector>

#include "util/error.h"
#include "util/failure_classes.h"

namespace sweep::runner {
namespace {

// Where each message was seen:
// - charliecloud: ch-run 0.31 here, `ch-run myimg -- /bin/true`:
//   "ch-run[19042]: error: can't stat: myimg: No such file or directory (ch_core.c:255 2)".
// - podman: podman 4.3.1 here, `podman run ... localhost/nothere:1` and `... nothere`:
//   "Error: initializing source docker://localhost/nothere:1: pinging container registry localhost: ...",
//   "Error: short-name "nothere" did not resolve to an alias and no unqualified-search registries are defined ...".
// - pyxis: NVIDIA/pyxis issues #118 and #127 (not run here): "slurmstepd: error: pyxis: failed to import docker image".
// - apptainer, singularity: apptainer's `FATAL:   could not open image PATH: ...` for a file that is not
//   there, and `manifest unknown` from a registry (not run here).
constexpr std::array<ContainerMessages, 5> kMessages{{
    {"apptainer", "apptainer", "FATAL: +(could not open image|.*manifest unknown)"},
    {"singularity", "singularity", "FATAL: +(could not open image|.*manifest unknown)"},
    {"pyxis", "srun", "pyxis: failed to import docker image"},
    {"podman", "podman", "^Error: (initializing source |short-name \".*\" did not resolve|.*image not known)"},
    {"charliecloud", "ch-run", "ch-run\\[[0-9]+]: error: can't stat: .*: No such file or directory"},
}};

// srun: "srun: error: cnode001: task 0: Exited with exit code 1" (NVIDIA/pyxis#118); Open MPI 4.1.4
// mpirun here: "Node:       vm".
const std::regex kNodeLine("^(srun: error: ([^ :]+): task |Node: +([^ ]+)$)", std::regex::extended);

/// The lines read: those of the last kScannedBytes of a run's stderr (the launcher's and runtime's lines
/// come at its end), each cut at kMatchedLineBytes. std::regex recurses once per character a `.*` takes:
/// a workload's line of 100 KB after "ch-run[1]: error: can't stat: " overflowed the stack (seen here), so
/// no longer line ever reaches a pattern.
constexpr std::size_t kScannedBytes = 64 * 1024;
constexpr std::size_t kMatchedLineBytes = 1024;

std::vector<std::string> scanned_lines(std::string_view text) {
  if (text.size() > kScannedBytes) text.remove_prefix(text.size() - kScannedBytes);
  std::vector<std::string> lines;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    lines.emplace_back(text.substr(0, std::min(eol, kMatchedLineBytes)));
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return lines;
}

std::string node_in(const std::vector<std::string>& lines) {
  std::smatch m;
  for (const std::string& line : lines)
    if (std::regex_search(line, m, kNodeLine)) return m[2].matched ? m[2].str() : m[3].str();
  return "";
}

}  // namespace

const ContainerMessages& container_messages(std::string_view runtime) {
  for (const ContainerMessages& m : kMessages)
    if (m.runtime == runtime) return m;
  throw Error(ErrorKind::internal, fmt::format("no container messages for runtime {}", runtime));
}

std::string runtime_missing_ere(std::string_view program) {
  // slurmstepd: "slurmstepd: error: execve(): ch-run: No such file or directory"; Open MPI 4.1.4 mpirun
  // (here): "Executable: nonexist-ch-run"; bash: "bash: line 27: apptainer: command not found".
  std::string p;
  for (const char ch : program)
    p += std::string_view("\\.[()*+?{}|^$").find(ch) == std::string_view::npos ? std::string(1, ch)
                                                                               : std::string("\\") + ch;
  return fmt::format("execve\\(\\): {0}: No such file or directory|^Executable: +{0}$|: {0}: command not found$", p);
}

std::optional<ContainerStderrFailure> container_failure_in(std::string_view runtime, std::string_view text) {
  const ContainerMessages& m = container_messages(runtime);
  const std::regex missing_program(runtime_missing_ere(m.program), std::regex::extended);
  const std::regex missing_image(std::string(m.image_missing), std::regex::extended);
  const std::vector<std::string> lines = scanned_lines(text);
  for (const std::string& line : lines) {
    if (std::regex_search(line, missing_program))
      return ContainerStderrFailure{failure::kContainerRuntime, line, node_in(lines)};
    if (std::regex_search(line, missing_image))
      return ContainerStderrFailure{failure::kContainerImage, line, node_in(lines)};
  }
  return std::nullopt;
}

}  // namespace sweep::runner
