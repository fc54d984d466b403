// Store methods for a campaign's forecast rows (schema version 10, docs/forecasts.md).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include "store/sql_helpers.h"
#include "store/store.h"

namespace sweep::store {
using namespace detail;

void detail::insert_forecasts(SQLite::Database& db, std::int64_t campaign_id, const std::vector<ForecastRecord>& rows) {
  SQLite::Statement q(db, "INSERT INTO campaign_forecasts (campaign_id, point_id, runs, nodes, gpus, expected_s, upper_s, "
                          "source, energy_j) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (const ForecastRecord& r : rows) {
    q.bind(1, campaign_id);
    q.bind(2, r.point_id);
    q.bind(3, r.runs);
    q.bind(4, r.nodes);
    q.bind(5, r.gpus);
    bind_optional(q, 6, r.expected_s);
    bind_optional(q, 7, r.upper_s);
    q.bind(8, r.source);
    bind_optional(q, 9, r.energy_j);
    q.exec();
    q.reset();
  }
}

std::vector<ForecastRecord> Store::forecasts(std::int64_t campaign_id) const {
  return guarded(path_, "read the campaign's forecast", [&] {
    SQLite::Statement q(*db_, "SELECT f.point_id, f.runs, f.nodes, f.gpus, f.expected_s, f.upper_s, f.source, f.energy_j "
                              "FROM campaign_forecasts f LEFT JOIN points p ON p.campaign_id = f.campaign_id AND "
                              "p.point_id = f.point_id WHERE f.campaign_id = ? ORDER BY p.ordinal, f.point_id");
    q.bind(1, campaign_id);
    std::vector<ForecastRecord> out;
    while (q.executeStep())
      out.push_back({q.getColumn(0).getString(), q.getColumn(1).getInt(), q.getColumn(2).getInt(),
                     q.getColumn(3).getInt(), optional_double(q.getColumn(4)), optional_double(q.getColumn(5)),
                     q.getColumn(6).getString(), optional_double(q.getColumn(7))});
    return out;
  });
}

}  // namespace sweep::store
