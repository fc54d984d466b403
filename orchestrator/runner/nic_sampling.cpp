#include "runner/nic_sampling.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "templating/render.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

// One snapshot of this node, with builtins only. $1: start|end; $2: the status to return.
// sweep_nic_interfaces is set before it is called.
constexpr const char* kSampleFunction = R"sh(sweep_nic_sample() {
  local d p dev rx tx ty op s node=${SLURMD_NODENAME:-$HOSTNAME}
  s="format=1"$'\n'"moment=$1"$'\n'"node=$node"$'\n'"time_s=$EPOCHREALTIME"$'\n'"interfaces=$sweep_nic_interfaces"$'\n'
  for d in /sys/class/net/*; do
    [ -r "$d/statistics/tx_bytes" ] || continue
    read -r rx < "$d/statistics/rx_bytes"; read -r tx < "$d/statistics/tx_bytes"
    read -r ty < "$d/type"; read -r op < "$d/operstate"
    s+="net ${d##*/} $ty $op $rx $tx"$'\n'
  done
  for d in /sys/class/infiniband/*/ports/*/counters; do
    [ -r "$d/port_xmit_data" ] || continue
    read -r rx < "$d/port_rcv_data"; read -r tx < "$d/port_xmit_data"
    p=${d%/counters}; dev=${p%/ports/*}
    s+="ib ${dev##*/}/${p##*/} $rx $tx"$'\n'
  done
  printf '%s' "$s" > "$SWEEP_RUN_DIR/nic.$1.$node"
  return "${2:-0}"
}
)sh";

// The local node only.
constexpr const char* kLocalDispatch = R"sh(sweep_nic() { sweep_nic_sample "$@"; }
)sh";

// Every node of a multi-node Slurm job, by one step; a one-node job like the local executor. The step
// takes the job's GPUs with it (no --gres=none: Slurm refuses that in a job that asked --gpus-per-node,
// "Invalid Trackable RESource (TRES) specification"); it runs alone, before or after the workload.
constexpr const char* kSlurmDispatch = R"sh(sweep_nic() {
  if [ "${SLURM_JOB_NUM_NODES:-1}" -gt 1 ]; then
    srun --ntasks-per-node=1 --ntasks="$SLURM_JOB_NUM_NODES" \
      bash -c "sweep_nic_interfaces=$(printf '%q' "$sweep_nic_interfaces"); $(declare -f sweep_nic_sample); sweep_nic_sample $1"
    return "${2:-0}"
  fi
  sweep_nic_sample "$@"
}
)sh";

constexpr std::array<std::pair<std::string_view, const char*>, 2> kDispatch{{{"local", kLocalDispatch},
                                                                            {"slurm", kSlurmDispatch}}};

}  // namespace

bool nic_counters_on(const spec::Network& network) { return network.counters && !network.where.file.empty(); }

NicSampling nic_sampling(const std::string& executor, bool enabled, const std::vector<std::string>& interfaces) {
  if (!enabled) return {};
  const auto* row = std::find_if(kDispatch.begin(), kDispatch.end(), [&](const auto& r) { return r.first == executor; });
  NicSampling out;
  out.start = "# Network counters at the start and end of the workload (runner/nic_sampling.h).\n";
  out.start += "sweep_nic_interfaces=" + templating::shell_quote(join(interfaces, " ")) + "\n";
  out.start += kSampleFunction;
  out.start += row == kDispatch.end() ? kLocalDispatch : row->second;
  out.start += "sweep_nic start";
  out.end = "sweep_nic end $?";
  return out;
}

}  // namespace sweep::runner
