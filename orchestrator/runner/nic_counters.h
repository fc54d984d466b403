#pragma once
// Network-card counters of a run: the snapshot files the job script writes (runner/nic_sampling.h) and
// the run's volume and throughput computed from them. Pure.
//
// Snapshot file, format 1 (docs/metrics-format.md): one per node and moment, named
// `nic.<moment>.<node>` in the run directory (moment: start | end). Lines:
//   format=1
//   moment=start|end
//   node=<node name>
//   time_s=<seconds since the epoch, decimal point '.' or ','>
//   interfaces=<names the experiment chose, space-separated; empty: the default rule>
//   net <interface> <type> <operstate> <rx_bytes> <tx_bytes>      (one per /sys/class/net entry)
//   ib <device>/<port> <port_rcv_data> <port_xmit_data>            (4-byte words, one per IB port)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::runner {

/// One interface or InfiniBand port's counters, in bytes (IB words already times 4).
struct NicCounter {
  std::string name;       // "eth0", or "mlx5_0/1" for an IB port
  bool infiniband = false;
  int type = 0;           // /sys/class/net/<if>/type (ARPHRD_*); 0 for an IB port
  std::string operstate;  // "up", "down", "unknown"...; "" for an IB port
  std::uint64_t rx_bytes = 0;
  std::uint64_t tx_bytes = 0;
};

struct NicSnapshot {
  std::string moment;  // "start" or "end"
  std::string node;
  double time_s = 0;
  std::vector<std::string> interfaces;  // chosen by the experiment; empty: the default rule
  std::vector<NicCounter> counters;
};

/// Parses one snapshot file's text. Throws Error naming `file`:line:column and what was expected.
NicSnapshot parse_nic_snapshot(std::string_view text, const std::string& file);

/// Whether a counter carries the run's traffic. With names, exactly the named interfaces and IB ports;
/// without, every interface that is up except loopback (type 772) and IPoIB (type 32, whose bytes the
/// IB port counters already count), plus every IB port.
bool carries_traffic(const NicCounter& counter, const std::vector<std::string>& interfaces);

struct NicMeasure {
  double volume_bytes = 0;    // bytes transmitted, summed over nodes and chosen interfaces
  double span_s = 0;          // the measured span: earliest end sample minus latest start sample
  double sampled_span_s = 0;  // the whole sampled span: latest end sample minus earliest start sample
  double throughput_bps = 0;  // volume_bytes * 8 / span_s (0 when span_s is 0)
  std::string note;           // why span_s is the sampled span, when the nodes' clocks made it so; "" otherwise
};

/// How far apart two nodes' clocks may be (NTP keeps a cluster's within milliseconds) before samples
/// whose order they contradict are taken as not bracketing one workload.
inline constexpr double kClockSkewS = 0.5;

/// The run's measure from its snapshots (any order). Every node needs one start and one end; a counter
/// is counted when it carries traffic at the start and exists at the end. The throughput is over the
/// span the workload ran in, as far as the samples tell it: from the last node's start sample (the
/// workload starts after every node was sampled) to the first node's end sample (it ended before any
/// was sampled again), so that the sampling steps' own start-up and wind-down (a multi-node Slurm job
/// samples its nodes by one srun step before and one after the workload, node by node) are not in it.
/// On one node both spans are the same. The workload's own start-up (imports, rendezvous, warm-up) is
/// between the samples and stays in the span: the samples cannot see it. When a node's end sample is no
/// later than another's start sample by less than kClockSkewS (a workload shorter than the clocks'
/// disagreement), the span is the sampled span and `note` says why. Throws Error when a node lacks a
/// moment, a counter went backwards (a reset or a wrap), or a node's end sample is earlier than another
/// node's start sample by more than kClockSkewS (the samples do not bracket one workload).
NicMeasure nic_measure(const std::vector<NicSnapshot>& snapshots);

}  // namespace sweep::runner
