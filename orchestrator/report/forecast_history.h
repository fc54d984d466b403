#pragma once
// What earlier campaigns say of the points of a campaign about to run (docs/forecasts.md, "The
// forecast", source `history`): the succeeded runs of the same point, by the identity rule `compare` and
// the history use (report/point_identity.h), in every campaign of this database (imported ones
// included) of the same experiment name.
#include <map>
#include <string>
#include <vector>

#include "store/records.h"

namespace sweep::store {
class Store;
}

namespace sweep::report {

struct PointHistory {
  std::vector<double> elapsed_s;     // the succeeded runs' wall time (runs.elapsed_s)
  std::vector<double> gpu_energy_j;  // those runs' gpu_energy_j, where they have it (docs/telemetry.md)
  std::vector<double> cpu_energy_j;
};

/// For each point of `planned` (the points of a campaign of experiment `experiment` about to run, by
/// point id), the history of the same point in `db`'s campaigns of that experiment; a point without any
/// is absent. Where campaigns of `system` (campaigns.system: the site's name) hold a point's history,
/// only theirs counts for it: another cluster's durations (an imported bundle) forecast a point only
/// when this system has never run it. A negative or non-finite figure is left out. Reads the database;
/// writes nothing.
std::map<std::string, PointHistory> forecast_history(const store::Store& db, const std::string& experiment,
                                                     const std::vector<store::PointRecord>& planned,
                                                     const std::string& system = "");

}  // namespace sweep::report
