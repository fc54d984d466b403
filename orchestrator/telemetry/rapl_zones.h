#pragma once
// The shell of the `rapl` source: powercap's intel-rapl zones under <sysfs-root>/class/powercap
// (docs/telemetry.md, "The sampler"). Zones intel-rapl:N are kind package (other when their name does
// not start with "package", such as psys), sub-zones intel-rapl:N:M are read only when named dram.
#include <memory>
#include <string>
#include <vector>

#include "telemetry/log.h"
#include "telemetry/rapl_counter.h"

namespace sweep::telemetry {

/// Pure: the kind of zone `zone` ("0", "0:1") named `name`: "package", "dram", "other", or "" for a
/// sub-zone that is not read (core, uncore).
std::string zone_kind(const std::string& zone, const std::string& name);

class RaplSource {
 public:
  /// Finds the zones and reads each energy_uj once. Throws Error(io) with the reason when there is no
  /// zone or a zone's counter cannot be read (root-only on most kernels): the source is unavailable.
  explicit RaplSource(const std::string& sysfs_root);

  const std::vector<RaplZone>& zones() const { return zones_; }

  /// Joules since construction per zone, in zones()' order (nullopt: the read failed this time).
  std::vector<std::optional<double>> sample();

 private:
  std::vector<RaplZone> zones_;
  std::vector<std::string> energy_files_;
  std::vector<EnergyCounter> counters_;
};

}  // namespace sweep::telemetry
