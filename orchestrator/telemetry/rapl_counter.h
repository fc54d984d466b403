#pragma once
// Joules from successive readings of one powercap energy counter (energy_uj), its wrap-around undone
// with the zone's max_energy_range_uj (docs/telemetry.md, "The sampler"). Pure.
#include <cstdint>
#include <optional>

namespace sweep::telemetry {

class EnergyCounter {
 public:
  /// `max_range_uj`: the zone's max_energy_range_uj, the value after which energy_uj starts again at 0.
  explicit EnergyCounter(std::uint64_t max_range_uj) : max_range_uj_(max_range_uj) {}

  /// Adds one reading; returns the joules since the first reading. A reading below the previous one is
  /// a wrap: the counter ran to max_range_uj and on from 0 (at most one wrap between readings, which
  /// holds at any interval the sampler allows: a package counter wraps after tens of minutes).
  double add(std::uint64_t energy_uj);

  double joules() const { return static_cast<double>(total_uj_) / 1e6; }

 private:
  std::uint64_t max_range_uj_;
  std::optional<std::uint64_t> last_uj_;
  std::uint64_t total_uj_ = 0;
};

}  // namespace sweep::telemetry
