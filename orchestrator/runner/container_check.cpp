// The container check's text: one table row per runtime (how its version and GPUs are found; its program
// and its image-missing message are runner/container_messages.h's), and the steps every runtime shares.
#include "runner/container_check.h"

#include <fmt/core.h>

#include <array>

#include "runner/container_messages.h"
#include "templating/render.h"
#include "util/error.h"
#include "util/secrets.h"

namespace sweep::runner {
namespace {

using templating::shell_quote;

/// How an image's text says what it is (image_kind_rule).
enum class ImageRule {
  url,     // a reference has "://" (docker://, library://, oras://); anything else is a path
  rooted,  // a path starts with /, ./ or ../; anything else is a reference (nvcr.io#nvidia/pytorch:24.01-py3)
  found,   // a path starts with /, ./ or ../, or is there on the node; anything else is a name in
           // ch-image's storage (example.com:5050/foo, nvidia/pytorch:24.01), as ch-run(1) reads it
  podman,  // always podman's own storage
};

struct CheckRow {
  std::string_view runtime;
  ImageRule image;
  std::string_view prepare;  // shell lines before the program is looked for (runner/container_messages.h's)
  /// Shell lines after the program is found: fail with CONTAINER_RUNTIME when it lacks what sweep
  /// needs; set sweep_container_version (one line). May read $sweep_container_node.
  std::string_view find;
  std::string_view gpu_hint;  // why a container may lack the GPUs, for the CONTAINER_GPU text
  /// With gpus: an ERE over container_check.log that makes a start that failed CONTAINER_GPU (the
  /// runtime refused the GPU option itself) instead of CONTAINER; "" = none known.
  std::string_view gpu_start_error = {};
};

constexpr std::array<CheckRow, 5> kCheckRows{{
    {"apptainer", ImageRule::url, "", "sweep_container_version=$(apptainer --version 2>&1 | head -n 1)\n",
     "apptainer exec --nv binds the host's NVIDIA driver and devices: does the node have a GPU and the driver?"},
    {"singularity", ImageRule::url, "", "sweep_container_version=$(singularity --version 2>&1 | head -n 1)\n",
     "singularity exec --nv binds the host's NVIDIA driver and devices: does the node have a GPU and the driver?"},
    {"pyxis", ImageRule::rooted, "",
     "srun --help 2>&1 | grep -q -- --container-image || sweep_container_failed CONTAINER_RUNTIME \"srun on node "
     "$sweep_container_node has no --container-image option: the Pyxis plugin is not installed there\" 127\n"
     "sweep_container_version=\"pyxis, $(srun --version 2>&1 | head -n 1)\"\n"
     "if command -v enroot > /dev/null; then sweep_container_version+=\", enroot $(enroot version 2>&1 | head -n 1)\"; "
     "fi\n",
     "enroot's NVIDIA hook gives the container the GPUs the job step has: does the job ask for GPUs?"},
    // Podman 4.3 without a CDI specification (seen here): "Error: setting up CDI devices: unresolvable
    // CDI devices nvidia.com/gpu=all", status 126.
    {"podman", ImageRule::podman, "", "sweep_container_version=$(podman --version 2>&1 | head -n 1)\n",
     "--device nvidia.com/gpu=all needs the NVIDIA Container Toolkit's CDI specification (nvidia-ctk cdi generate)",
     "unresolvable CDI devices"},
    {"charliecloud", ImageRule::found, "[ -n \"${USER:-}\" ] || export USER=\"$(id -un)\"  # ch-run requires it\n",
     "sweep_container_version=\"ch-run $(ch-run --version 2>&1 | head -n 1)\"\n",
     "ch-run shares the host's /dev: the node has no NVIDIA device, or the image lacks the driver's libraries "
     "(ch-fromhost --nvidia)"},
}};

const CheckRow& row(std::string_view runtime) {
  for (const CheckRow& r : kCheckRows)
    if (r.runtime == runtime) return r;
  throw Error(ErrorKind::internal, fmt::format("no container check for runtime {}", runtime));
}

constexpr const char* kFunctions =
    R"sh(# Container: the runtime, the image and one start of it (runner/container_check.h, docs/containers.md).
sweep_container_failed() {
  local text="${2//$'\n'/ }"
  printf 'format=1\nclass=%s\ntext=%s\n' "$1" "$text" > "$SWEEP_RUN_DIR/container_failed"
  printf 'sweep: %s: %s\n' "$1" "$text" >&2
  exit "$3"
}
sweep_container_node=$(hostname 2> /dev/null || printf '%s' "${HOSTNAME:-unknown}")
: > "$SWEEP_RUN_DIR/container_check.log"  # this attempt's: every step below appends
)sh";

/// The program's lookup and the row's own lines.
std::string find_runtime(const RenderedContainer& c) {
  const CheckRow& r = row(c.runtime);
  const std::string_view program = container_messages(c.runtime).program;
  std::string out(r.prepare);
  out += fmt::format(
      "command -v {0} > /dev/null || sweep_container_failed CONTAINER_RUNTIME \"the container runtime's program {0}{1} "
      "is not found on node $sweep_container_node (PATH=$PATH)\" 127\n",
      program, program == c.runtime ? "" : fmt::format(" ({})", c.runtime));
  return out + std::string(r.find);
}

/// Sets sweep_container_image, sweep_container_kind, sweep_container_id and sweep_container_id_error
/// (why sweep-image-id printed no id: its status and last stderr line; its stderr is kept in the log),
/// or fails with CONTAINER_IMAGE.
std::string find_image(const RenderedContainer& c, const ContainerCheckPaths& paths) {
  std::string out = "sweep_container_image=" + shell_quote(c.image) + "\n";
  const std::string kind = image_kind_rule(c);
  if (kind == "reference") return out + "sweep_container_kind=reference sweep_container_id=\n";
  if (kind == "path or name")  // decided on the node: a name of ch-image's storage is not checked here
    out += "case $sweep_container_image in /* | ./* | ../*) ;; *) [ -e \"$sweep_container_image\" ] || "
           "sweep_container_storage_name=1 ;; esac\n";
  if (kind == "podman")
    return out +
           "sweep_container_kind=podman\n"
           "podman image exists \"$sweep_container_image\" 2>> \"$SWEEP_RUN_DIR/container_check.log\" || "
           "sweep_container_failed CONTAINER_IMAGE \"podman has no image $sweep_container_image on node "
           "$sweep_container_node (podman image exists: status $?; podman pull it first)\" 2\n"
           "sweep_container_id=$(podman image inspect --format '{{.Id}}' \"$sweep_container_image\" 2>> "
           "\"$SWEEP_RUN_DIR/container_check.log\")\n"
           "sweep_container_id=${sweep_container_id:+sha256:${sweep_container_id#sha256:}}\n";
  return out + fmt::format(
                   "if [ -n \"${{sweep_container_storage_name:-}}\" ]; then sweep_container_kind=reference\n"
                   "elif [ -f \"$sweep_container_image\" ]; then sweep_container_kind=file\n"
                   "elif [ -d \"$sweep_container_image\" ]; then sweep_container_kind=directory\n"
                   "else sweep_container_failed CONTAINER_IMAGE \"the image $sweep_container_image is not on node "
                   "$sweep_container_node: "
                   "no such file or directory (in $PWD)\" 2; fi\n"
                   "sweep_container_id= sweep_container_id_error=\n"
                   "if [ -x {0} ] && [ \"$sweep_container_kind\" != reference ]; then\n"
                   "  sweep_container_id=$({0} --verbose --cache {1} \"$sweep_container_image\" 2> "
                   "\"$SWEEP_RUN_DIR/image_id.log\") || "
                   "{{ sweep_container_id_error=\"sweep-image-id: status $?: $(tail -n 1 \"$SWEEP_RUN_DIR/image_id.log\")\"; "
                   "sweep_container_id=; }}\n"
                   "  cat \"$SWEEP_RUN_DIR/image_id.log\" >> \"$SWEEP_RUN_DIR/container_check.log\"; "
                   "rm -f \"$SWEEP_RUN_DIR/image_id.log\"\n"
                   "fi\n",
                   shell_quote(paths.image_id_program), shell_quote(paths.image_id_cache));
}

std::string write_provenance(const RenderedContainer& c) {
  return fmt::format(
      "mkdir -p \"$SWEEP_RUN_DIR/provenance\"\n"
      "printf 'format={}\\nruntime=%s\\nruntime_version=%s\\nimage=%s\\nimage_kind=%s\\nimage_id=%s\\ngpus=%s\\n' {} "
      "\"$sweep_container_version\" \"$sweep_container_image\" \"$sweep_container_kind\" \"$sweep_container_id\" {} > "
      "\"$SWEEP_RUN_DIR/provenance/container\"\n"
      "[ -z \"${{sweep_container_id_error:-}}\" ] || printf 'image_id_error=%s\\n' \"${{sweep_container_id_error//$'\\n'/ }}\" >> "
      "\"$SWEEP_RUN_DIR/provenance/container\"\n",
      kContainerProvenanceFormat, c.runtime, c.gpus ? "true" : "false");
}

/// With gpus, the line that makes a failed start CONTAINER_GPU when the runtime's message says it
/// could not give the GPUs (CheckRow::gpu_start_error); "" otherwise.
std::string gpu_start_failure(const RenderedContainer& c) {
  const CheckRow& r = row(c.runtime);
  if (!c.gpus || r.gpu_start_error.empty()) return "";
  return fmt::format(
      "if [ \"$sweep_container_status\" -ne 0 ] && grep -Eq {} \"$SWEEP_RUN_DIR/container_check.log\"; then "
      "sweep_container_failed CONTAINER_GPU \"gpus: true, but {} could not give the container the GPUs on node "
      "$sweep_container_node (status $sweep_container_status): $(tail -n 5 \"$SWEEP_RUN_DIR/container_check.log\"): "
      "{}\" "
      "\"$sweep_container_status\"; fi\n",
      shell_quote(std::string(r.gpu_start_error)), c.runtime, r.gpu_hint);
}

/// The line that makes a failed start CONTAINER_IMAGE when the runtime's message says the image is not
/// there (a name the runtime resolves, which the check cannot look for itself: runner/container_messages.h).
std::string image_start_failure(const RenderedContainer& c) {
  return fmt::format(
      "if [ \"$sweep_container_status\" -ne 0 ] && grep -Eq {} \"$SWEEP_RUN_DIR/container_check.log\"; then "
      "sweep_container_failed CONTAINER_IMAGE \"{} has no image $sweep_container_image on node $sweep_container_node "
      "(status $sweep_container_status): $(tail -n 5 \"$SWEEP_RUN_DIR/container_check.log\")\" 2; fi\n",
      shell_quote(std::string(container_messages(c.runtime).image_missing)), c.runtime);
}

/// The words that start the container once, up to its command.
std::string start_words(const ContainerWords& w) {
  if (!w.srun_options.empty()) return w.assignments + "srun --nodes=1 --ntasks=1 " + w.srun_options;
  return w.assignments + w.before_command;
}

/// What the container's /bin/sh runs (inside sh -c '...': no single quote): one NAME=VALUE line per
/// variable of the names provenance keeps that is really set, its value's line breaks folded to spaces,
/// so that no line starts with anything but such a name (a value holding "\nsweep-gpu-device\nNCCL_NET=IB"
/// forges nothing); then the GPU marker. Needs env, sed and tr in the image (busybox has them).
constexpr std::string_view kInsideCheck =
    "for n in $(env | sed -n -E \"s/^((NCCL|UCX|OMPI|PMIX|I_MPI|FI|MPICH|CUDA|NVIDIA)_[A-Za-z0-9_]*)=.*/\\1/p\"); do "
    "eval \"[ \\\"\\${$n+x}\\\" = x ]\" || continue; eval \"sweep_v=\\${$n}\"; "
    "printf \"%s=%s\\n\" \"$n\" \"$(printf %s \"$sweep_v\" | tr \"\\n\\r\" \"  \")\"; done; "
    "[ -e /dev/nvidiactl ] && echo sweep-gpu-device; exit 0";

std::string start(const RenderedContainer& c, const ContainerWords& w) {
  std::string out = fmt::format(
      "sweep_container_out=$({}/bin/sh -c '{}' 2>> "
      "\"$SWEEP_RUN_DIR/container_check.log\")\n"
      "sweep_container_status=$?\n"
      "{}{}"
      "if [ \"$sweep_container_status\" -ne 0 ]; then sweep_container_failed CONTAINER \"{} did not start the "
      "container on node $sweep_container_node (status $sweep_container_status): $(tail -n 5 "
      "\"$SWEEP_RUN_DIR/container_check.log\")\" "
      "\"$sweep_container_status\"; fi\n",
      start_words(w), kInsideCheck, gpu_start_failure(c), image_start_failure(c), c.runtime);
  // As comm_env: a secret-looking name's value is masked (util/secrets.h's secret_name).
  out +=
      "printf '%s\\n' \"$sweep_container_out\" | grep -E '^(NCCL|UCX|OMPI|PMIX|I_MPI|FI|MPICH|CUDA|NVIDIA)_' | "
      "grep -v '^OMPI_ALLOW_RUN_AS_ROOT' | sed -E '" + secret_line_sed_script() + "' | "
      "sort -u > \"$SWEEP_RUN_DIR/provenance/container_env\"\n"
      "[ -s \"$SWEEP_RUN_DIR/provenance/container_env\" ] || rm -f \"$SWEEP_RUN_DIR/provenance/container_env\"\n";
  if (c.gpus)
    out += fmt::format(
        "printf '%s\\n' \"$sweep_container_out\" | grep -qx sweep-gpu-device || sweep_container_failed CONTAINER_GPU "
        "\"gpus: true, but there is no NVIDIA device (/dev/nvidiactl) inside the container on node "
        "$sweep_container_node: {}\" 1\n",
        row(c.runtime).gpu_hint);
  return out + "unset sweep_container_out\n";
}

}  // namespace

std::string image_kind_rule(const RenderedContainer& c) {
  const std::string& image = c.image;
  switch (row(c.runtime).image) {
    case ImageRule::url: return image.find("://") != std::string::npos ? "reference" : "path";
    case ImageRule::rooted:
      return image.rfind('/', 0) == 0 || image.rfind("./", 0) == 0 || image.rfind("../", 0) == 0 ? "path" : "reference";
    case ImageRule::found: return "path or name";
    case ImageRule::podman: break;
  }
  return "podman";
}

std::string container_check(const RenderedContainer& c, const ContainerWords& words, const ContainerCheckPaths& paths) {
  if (c.runtime.empty()) return "";
  return kFunctions + find_runtime(c) + find_image(c, paths) + write_provenance(c) + start(c, words);
}

}  // namespace sweep::runner
