#include "telemetry/rapl_zones.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/error.h"

namespace sweep::telemetry {
namespace {

constexpr std::string_view kPrefix = "intel-rapl:";

/// The first line of a sysfs file; Error(io) "<path>: <strerror>" when it cannot be read.
std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    throw Error(ErrorKind::io, path + ": " + std::strerror(errno == 0 ? EIO : errno));
  }
  return line;
}

std::uint64_t read_number(const std::string& path) {
  const std::string text = read_line(path);
  try {
    std::size_t used = 0;
    const auto value = std::stoull(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw Error(ErrorKind::io, path + ": not a number: \"" + text + "\"");
}

}  // namespace

std::string zone_kind(const std::string& zone, const std::string& name) {
  const bool sub_zone = zone.find(':') != std::string::npos;
  if (sub_zone) return name == "dram" ? "dram" : "";
  return name.rfind("package", 0) == 0 ? "package" : "other";
}

RaplSource::RaplSource(const std::string& sysfs_root) {
  const std::filesystem::path dir = std::filesystem::path(sysfs_root) / "class" / "powercap";
  std::error_code ec;
  std::vector<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string base = entry.path().filename().string();
    if (base.rfind(kPrefix, 0) == 0) ids.push_back(base.substr(kPrefix.size()));
  }
  std::sort(ids.begin(), ids.end());
  for (const auto& id : ids) {
    const std::string zone_dir = (dir / (std::string(kPrefix) + id)).string();
    const std::string name = read_line(zone_dir + "/name");
    const std::string kind = zone_kind(id, name);
    if (kind.empty()) continue;
    counters_.emplace_back(read_number(zone_dir + "/max_energy_range_uj"));
    energy_files_.push_back(zone_dir + "/energy_uj");
    counters_.back().add(read_number(energy_files_.back()));
    zones_.push_back({id, kind, name});
  }
  if (zones_.empty()) throw Error(ErrorKind::io, "no intel-rapl zone under " + dir.string());
}

std::vector<std::optional<double>> RaplSource::sample() {
  std::vector<std::optional<double>> joules;
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    try {
      joules.emplace_back(counters_[i].add(read_number(energy_files_[i])));
    } catch (const Error&) {
      joules.emplace_back(std::nullopt);
    }
  }
  return joules;
}

}  // namespace sweep::telemetry
