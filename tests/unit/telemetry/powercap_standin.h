#pragma once
// A powercap stand-in for the tests: a sysfs tree (class/powercap/intel-rapl:<zone>/ with name,
// max_energy_range_uj and energy_uj) written under a temporary directory and handed to the sampler as
// its sysfs root. The real tree is absent on this machine and root-only to read on most kernels.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.h"

struct PowercapStandin {
  TempDir dir;
  std::string root() const { return dir.path.string(); }
  std::string zone_dir(const std::string& zone) const { return dir.file("class/powercap/intel-rapl:" + zone); }
  void zone(const std::string& zone, const std::string& name, std::uint64_t max_uj, std::uint64_t energy_uj) const {
    std::filesystem::create_directories(zone_dir(zone));
    std::ofstream(zone_dir(zone) + "/name") << name << "\n";
    std::ofstream(zone_dir(zone) + "/max_energy_range_uj") << max_uj << "\n";
    set(zone, energy_uj);
  }
  /// Writes the counter whole (a new file renamed over the old, as a reader must never see it half written).
  void set(const std::string& zone, std::uint64_t energy_uj) const {
    const std::string file = zone_dir(zone) + "/energy_uj";
    std::ofstream(file + ".new") << energy_uj << "\n";
    std::filesystem::rename(file + ".new", file);
  }
};
