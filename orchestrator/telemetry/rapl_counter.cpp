#include "telemetry/rapl_counter.h"

namespace sweep::telemetry {

double EnergyCounter::add(std::uint64_t energy_uj) {
  if (last_uj_) {
    total_uj_ += energy_uj >= *last_uj_ ? energy_uj - *last_uj_ : (max_range_uj_ - *last_uj_) + energy_uj;
  }
  last_uj_ = energy_uj;
  return joules();
}

}  // namespace sweep::telemetry
