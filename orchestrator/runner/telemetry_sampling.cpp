#include "runner/telemetry_sampling.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "templating/render.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

// The sampler as a daemon on this node, and its stop. sweep_telemetry_program and sweep_telemetry_args
// are set before. A start that fails leaves telemetry_failed with the sampler's own words. The node's
// name is the sampler's own (SLURMD_NODENAME, else gethostname: uname -n, never an inherited $HOSTNAME),
// so that the file's name and its `node` record agree (ingest refuses a file where they differ).
constexpr const char* kDaemon = R"sh(sweep_telemetry_pid=
sweep_telemetry_daemon() {
  local failed="$SWEEP_RUN_DIR/telemetry_failed" node=${SLURMD_NODENAME:-$(uname -n)}
  printf '%s\n' "$node" > "$SWEEP_RUN_DIR/telemetry_nodes"
  sweep_telemetry_pid=$("$sweep_telemetry_program" --daemon --out "$SWEEP_RUN_DIR/telemetry.$node" \
    "${sweep_telemetry_args[@]}" --root $$ < /dev/null 2> "$failed")
  local rc=$?
  if [ "$rc" -ne 0 ] || [ -z "$sweep_telemetry_pid" ]; then
    [ -s "$failed" ] || printf 'the sampler %s exited with status %s before its first sample\n' "$sweep_telemetry_program" "$rc" > "$failed"
    sweep_telemetry_pid=
  else
    rm -f "$failed"
  fi
}
)sh";

constexpr const char* kLocalDispatch = R"sh(sweep_telemetry_start() { sweep_telemetry_daemon; }
sweep_telemetry_stop() {
  [ -z "$sweep_telemetry_pid" ] || "$sweep_telemetry_program" stop "$sweep_telemetry_pid" > /dev/null 2>&1
  sweep_telemetry_pid=
  return "${1:-0}"
}
)sh";

// Every node of a multi-node Slurm job by one step beside the workload (--overlap: it takes no CPUs from
// the workload's steps); a one-node job like the local executor. SWEEP_RUN_DIR is left out of the step's
// environment, so that its srun is not counted as the workload's.
constexpr const char* kSlurmDispatch = R"sh(sweep_telemetry_step= sweep_telemetry_step_id=
sweep_telemetry_start() {
  if [ "${SLURM_JOB_NUM_NODES:-1}" -le 1 ]; then sweep_telemetry_daemon; return; fi
  timeout 10 scontrol show hostnames "$SLURM_JOB_NODELIST" > "$SWEEP_RUN_DIR/telemetry_nodes" 2> /dev/null ||
    rm -f "$SWEEP_RUN_DIR/telemetry_nodes"
  sweep_telemetry_step=$( { env -u SWEEP_RUN_DIR srun --overlap --job-name=sweep-telemetry --ntasks-per-node=1 --ntasks="$SLURM_JOB_NUM_NODES" \
    bash -c 'exec "$0" --out "$1/telemetry.${SLURMD_NODENAME:-$HOSTNAME}" "${@:2}"' \
    "$sweep_telemetry_program" "$SWEEP_RUN_DIR" "${sweep_telemetry_args[@]}" \
    < /dev/null > /dev/null 2> "$SWEEP_RUN_DIR/telemetry_step_errors" & } ; echo $!)
  local i f n
  for ((i = 0; i < 300; i++)); do
    n=0
    for f in "$SWEEP_RUN_DIR"/telemetry.*; do [ ! -e "$f" ] || n=$((n + 1)); done
    [ "$n" -lt "$SLURM_JOB_NUM_NODES" ] || break
    kill -0 "$sweep_telemetry_step" 2> /dev/null || break
    sleep 0.1
  done
  if ! kill -0 "$sweep_telemetry_step" 2> /dev/null; then
    { printf 'the sampler step ended before the workload: '; head -c 2000 "$SWEEP_RUN_DIR/telemetry_step_errors"; } > "$SWEEP_RUN_DIR/telemetry_failed"
    sweep_telemetry_step=
  fi
  # The step's id, to signal its tasks (a SIGTERM to srun itself kills them instead: "forcing job termination").
  sweep_telemetry_step_id=$(timeout 10 squeue -h -s -j "$SLURM_JOB_ID" -o '%i %j' 2> /dev/null | while read -r id name; do
    [ "$name" != sweep-telemetry ] || { echo "$id"; break; }; done)
}
sweep_telemetry_stop() {
  if [ -n "$sweep_telemetry_step" ]; then
    if [ -n "$sweep_telemetry_step_id" ]; then timeout 10 scancel --signal=TERM "$sweep_telemetry_step_id" 2> /dev/null
    else kill -TERM "$sweep_telemetry_step" 2> /dev/null; fi
    local i
    for ((i = 0; i < 100; i++)); do kill -0 "$sweep_telemetry_step" 2> /dev/null || break; sleep 0.1; done
    ! kill -0 "$sweep_telemetry_step" 2> /dev/null || kill -KILL "$sweep_telemetry_step" 2> /dev/null
  elif [ -n "$sweep_telemetry_pid" ]; then
    "$sweep_telemetry_program" stop "$sweep_telemetry_pid" > /dev/null 2>&1
  fi
  sweep_telemetry_pid= sweep_telemetry_step=
  return "${1:-0}"
}
)sh";

constexpr std::array<std::pair<std::string_view, const char*>, 2> kDispatch{{{"local", kLocalDispatch},
                                                                            {"slurm", kSlurmDispatch}}};

// A sampler that is not there: the run goes on without telemetry, and says why.
constexpr const char* kMissing = R"sh(if [ -x "$sweep_telemetry_program" ]; then sweep_telemetry_start
else printf 'the sampler %s is not an executable file\n' "$sweep_telemetry_program" > "$SWEEP_RUN_DIR/telemetry_failed"; fi)sh";

}  // namespace

TelemetrySampling telemetry_sampling(const std::string& executor, const spec::Telemetry& telemetry,
                                     const std::string& program) {
  if (!telemetry.enabled) return {};
  const auto* row = std::find_if(kDispatch.begin(), kDispatch.end(), [&](const auto& r) { return r.first == executor; });
  TelemetrySampling out;
  out.start = "# Telemetry beside the workload: telemetry.<node> (runner/telemetry_sampling.h, docs/telemetry.md).\n";
  out.start += "sweep_telemetry_program=" + templating::shell_quote(program) + "\n";
  out.start += fmt::format("sweep_telemetry_args=(--interval-ms {} --sources {} --marker \"SWEEP_RUN_DIR=$SWEEP_RUN_DIR\")\n",
                           telemetry.interval_ms, join(telemetry.sources, ","));
  out.start += kDaemon;
  out.start += row == kDispatch.end() ? kLocalDispatch : row->second;
  out.start += kMissing;
  out.end = "sweep_telemetry_stop $?";
  return out;
}

}  // namespace sweep::runner
