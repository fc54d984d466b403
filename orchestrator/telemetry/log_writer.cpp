#include "telemetry/log_writer.h"

#include <fmt/format.h>

namespace sweep::telemetry {
namespace {

/// A value with 3 decimals, or `-`.
std::string value(const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : "-"; }

/// Text that ends a record (a name, a detail): one line, never empty.
std::string tail(const std::string& text) {
  std::string out;
  for (const char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out.empty() ? "-" : out;
}

}  // namespace

std::string header_records(const std::string& node, int interval_ms, double epoch_s,
                           const std::vector<SourceStatus>& sources, const std::vector<GpuDevice>& gpus,
                           const std::vector<RaplZone>& zones) {
  std::string out = fmt::format("sweep-telemetry format={}\nnode {}\ninterval_ms {}\nepoch_s {:.3f}\n", kFormat,
                                node, interval_ms, epoch_s);
  for (const auto& s : sources) {
    out += fmt::format("source {} {}{}\n", s.source, s.state, s.detail.empty() ? "" : " " + tail(s.detail));
  }
  for (const auto& g : gpus) out += fmt::format("gpu_device {} {} {}\n", g.index, g.uuid, tail(g.name));
  for (const auto& z : zones) out += fmt::format("rapl_zone {} {} {}\n", z.zone, z.kind, tail(z.name));
  return out;
}

std::string proc_record(const ProcSample& s) {
  return fmt::format("proc {:.3f} {:.3f} {:.3f} {} {}\n", s.t, s.cpu_s, s.rss_mib, s.nprocs, value(s.peak_mib));
}

std::string rapl_record(double t, const std::string& zone, const std::optional<double>& energy_j) {
  return fmt::format("rapl {:.3f} {} {}\n", t, zone, value(energy_j));
}

std::string gpu_record(const GpuSample& s) {
  const std::string throttle = s.throttle ? fmt::format("{:#x}", *s.throttle) : "-";
  return fmt::format("gpu {:.3f} {} {} {} {} {} {} {} {} {}\n", s.t, s.index, value(s.energy_j), value(s.power_w),
                     value(s.util_pct), value(s.mem_util_pct), value(s.mem_mib), value(s.sm_mhz), value(s.temp_c),
                     throttle);
}

std::string end_record(double t) { return fmt::format("end {:.3f}\n", t); }

}  // namespace sweep::telemetry
