#pragma once
// The telemetry file a run's sampler writes (sweep-telemetry, one per node of the run), and its reading.
// Pure: parse_telemetry takes the text; nothing here touches a file.
//
// File `telemetry.<node>` in the run directory, format 2 (docs/telemetry.md; format 1 is read too: its
// `proc` record has no <peak_mib>). Text, one record a line,
// fields separated by single spaces; `-` is a value the source could not give at that sample. t is
// seconds since the sampler's first sample (taken right before the workload started), decimal point '.'.
//   sweep-telemetry format=2                       first line, always
//   node <name>                                    the node's name ($SLURMD_NODENAME, else the host name)
//   interval_ms <n>                                the sampling interval asked for
//   epoch_s <seconds since the epoch at t = 0>
//   source <proc|rapl|nvml> <ok|off|unavailable> [detail to the end of the line]
//   gpu_device <index> <uuid> <name to the end of the line>      one per GPU sampled (nvml ok)
//   rapl_zone <zone> <kind> <name>   zone: powercap id ("0", "0:1"); kind: package | dram | other
//   proc <t> <cpu_s> <rss_mib> <nprocs> <peak_mib> the workload's processes on this node: CPU seconds
//                                                  so far (user + system), resident MiB now (VmRSS
//                                                  summed), how many, and the largest VmHWM of one
//                                                  process so far (`-` when unknown)
//   rapl <t> <zone> <energy_j>                     joules since t = 0, wrap-around already undone; `-`
//                                                  when the zone could not be read at that sample
//   gpu <t> <index> <energy_j> <power_w> <util_pct> <mem_util_pct> <mem_mib> <sm_mhz> <temp_c> <throttle>
//                                                  energy_j: joules since t = 0 from NVML's total-energy
//                                                  counter; throttle: the clock-event reasons, hex (0x...)
//   end <t>                                        the sampler was stopped (the workload ended); last line
// A file without `end` was cut short (the job was killed): what it holds is still read, and a last line
// without its newline that does not read is dropped (it was being written). Unknown record names are an
// error (a later layout takes another format number).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep::telemetry {

inline constexpr int kFormat = 2;
/// Prefix of the telemetry files in a run directory: telemetry.<node>.
inline constexpr const char* kFilePrefix = "telemetry.";

struct SourceStatus {
  std::string source;  // "proc", "rapl", "nvml"
  std::string state;   // "ok", "off", "unavailable"
  std::string detail;  // why unavailable, or what was found ("libnvidia-ml.so.1 driver 580.65")
};

struct GpuDevice {
  int index = 0;
  std::string uuid;
  std::string name;
};

struct RaplZone {
  std::string zone;  // "0", "0:1"
  std::string kind;  // "package", "dram", "other"
  std::string name;  // powercap's name file: "package-0", "dram"
};

struct ProcSample {
  double t = 0;
  double cpu_s = 0;
  double rss_mib = 0;
  int nprocs = 0;
  std::optional<double> peak_mib = std::nullopt;  // largest VmHWM of one process so far; none in format 1, or `-`
};

struct RaplSample {
  double t = 0;
  std::string zone;
  std::optional<double> energy_j;  // none: the zone could not be read at that sample (`-`)
};

struct GpuSample {
  double t = 0;
  int index = 0;
  std::optional<double> energy_j, power_w, util_pct, mem_util_pct, mem_mib, sm_mhz, temp_c;
  std::optional<std::uint64_t> throttle;
};

struct Log {
  std::string node;
  int interval_ms = 0;
  double epoch_s = 0;
  std::vector<SourceStatus> sources;
  std::vector<GpuDevice> gpus;
  std::vector<RaplZone> zones;
  std::vector<ProcSample> proc;
  std::vector<RaplSample> rapl;
  std::vector<GpuSample> gpu;
  std::optional<double> end_t;  // set when the file ends with `end`
  bool torn_last_line = false;   // the last line had no newline and did not read: dropped (cut mid-write)
};

/// Reads one telemetry file's text. Throws Error(io) naming `file`:line:column and what was expected
/// at the first malformed record (wrong first line, unknown record, a field that is not a number from 0
/// to 1e15, a time that goes backwards, a cumulative value (cpu_s, a zone's or a GPU's energy_j) that
/// goes backwards, a sample of a GPU or zone not declared before it, a record after `end`).
Log parse_telemetry(std::string_view text, const std::string& file);

}  // namespace sweep::telemetry
