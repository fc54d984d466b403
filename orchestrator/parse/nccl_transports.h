#pragma once
// What NCCL reports it chose, read from a workload's output with NCCL_DEBUG=INFO (docs/containers.md,
// "The transports that ran"): the network (`nccl.net`) and the channel transports (`nccl.transports`).
// Inside a container a library can fall back to a slower transport without a word; these keys make it
// visible per run. Pure.
//
// Lines are found wherever "NCCL INFO " stands in them (after a host:pid:tid [dev] prefix, a launcher's
// tag or a logger's timestamp):
//   - "NCCL INFO Using network IB" (NCCL 2.5 on): the network is IB. Without such a line,
//     "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ..." (the transports NCCL initialised, as older NCCLs
//     print): each named one, Socket left out when another is there (Socket is NCCL's fallback).
//   - "NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0/GDRDMA": a channel's transport, named
//     without its device index and read/direct suffixes: P2P/<kind> (P2P/IPC, P2P/CUMEM, P2P/direct),
//     SHM, NET/<network> with /GDRDMA when GPUDirect RDMA is on; another NCCL transport by its first word.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sweep::parse {

/// The distinct values seen, each sorted.
struct NcclTransports {
  std::vector<std::string> networks;
  std::vector<std::string> transports;
  bool empty() const { return networks.empty() && transports.empty(); }
};

/// Reads every line of `texts` (a run's stdout and stderr: a network chosen on one side wins over the
/// initialised ones of the other).
NcclTransports scan_nccl_transports(const std::vector<std::string_view>& texts);

/// The provenance keys: `nccl.net` and `nccl.transports` (comma-separated), each only when seen.
std::vector<std::pair<std::string, std::string>> nccl_transport_keys(const NcclTransports& seen);

/// One channel's transport as named in nccl.transports, from the text after "via " ("" when none).
std::string channel_transport(std::string_view via);

}  // namespace sweep::parse
