// The runtimes' messages for a missing program or image, one table row per runtime.
#include "runner/container_messages.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <regex>

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
    {"apptainer", "apptainer", "FATAL: +(could not open image|.*manifest unknown)", "FATAL:"},
    {"singularity", "singularity", "FATAL: +(could not open image|.*manifest unknown)", "FATAL:"},
    {"pyxis", "srun", "pyxis: failed to import docker image", "pyxis: failed"},
    {"podman", "podman", "^Error: (initializing source |short-name \".*\" did not resolve|.*image not known)", "Error: "},
    {"charliecloud", "ch-run", "ch-run\\[[0-9]+]: error: can't stat: .*: No such file or directory", "can't stat: "},
}};

// srun: "srun: error: cnode001: task 0: Exited with exit code 1" (NVIDIA/pyxis#118); Open MPI 4.1.4
// mpirun here: "Node:       vm".
const std::regex kNodeLine("^(srun: error: ([^ :]+): task |Node: +([^ ]+)$)", std::regex::extended);

/// std::regex recurses once per character a `.*` takes: a workload's line of 100 KB after
/// "ch-run[1]: error: can't stat: " overflowed the stack (seen here), so a pattern sees at most this much
/// of a line.
constexpr std::size_t kMatchedLineBytes = 1024;

/// Calls `f(line, offset)` for each line of `text` from byte `from` on, until it returns true.
template <typename F>
void each_line(std::string_view text, std::size_t from, F f) {
  while (from < text.size()) {
    const auto eol = std::min(text.find('\n', from), text.size());
    if (f(text.substr(from, eol - from), from)) return;
    from = eol + 1;
  }
}

bool matches(std::string_view line, const std::regex& re) {
  const std::string cut(line.substr(0, kMatchedLineBytes));
  return std::regex_search(cut, re);
}

/// The node of the first srun/mpirun node line from byte `from` on, "" when none.
std::string node_from(std::string_view text, std::size_t from) {
  std::string node;
  each_line(text, from, [&](std::string_view line, std::size_t) {
    if (line.rfind("srun: error: ", 0) != 0 && line.rfind("Node:", 0) != 0) return false;
    const std::string cut(line.substr(0, kMatchedLineBytes));
    std::smatch m;
    if (!std::regex_search(cut, m, kNodeLine)) return false;
    node = m[2].matched ? m[2].str() : m[3].str();
    return true;
  });
  return node;
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
  std::optional<ContainerStderrFailure> found;
  std::size_t after = 0;
  each_line(text, 0, [&](std::string_view line, std::size_t at) {
    std::string_view cls;
    if (line.find(m.program) != std::string_view::npos && matches(line, missing_program))
      cls = failure::kContainerRuntime;
    else if (line.find(m.image_token) != std::string_view::npos && matches(line, missing_image))
      cls = failure::kContainerImage;
    if (cls.empty()) return false;
    found = ContainerStderrFailure{cls, std::string(line.substr(0, kMatchedLineBytes)), ""};
    after = at + line.size();
    return true;
  });
  if (found) {
    found->node = node_from(text, after);
    if (found->node.empty()) found->node = node_from(text.substr(0, after), 0);
  }
  return found;
}

}  // namespace sweep::runner
