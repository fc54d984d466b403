#pragma once
// SQL views for reading results without joins (pandas.read_sql, Datasette, sqlite3): docs/database.md
// "Views". Internal to store/.
//
//   metric_values      one row per metric value of every run's latest attempt: campaign, experiment,
//                      point_id, point (ordinal), repetition, attempt, state, metric, idx, value, unit,
//                      better, run_id, elapsed_s (the run's wall time; version 8)
//   parameter_values   one row per parameter of every point, its value typed (INTEGER, REAL, 0/1, TEXT)
//   "values:<label>"   per campaign: metric_values of that campaign with one typed column per parameter
//                      (a parameter named like a column of metric_values gets the prefix "param_")
#include <SQLiteCpp/Database.h>

#include <cstdint>
#include <string>

namespace sweep::store {

/// Version 4 of the schema: the views shared by every campaign.
extern const char* const kViewsV4;

/// Version 7 of the schema: metric_values gains elapsed_s (runs.elapsed_s), the run's wall time. The per-campaign views are made again after it (recreate_campaign_views), so that a
/// parameter named elapsed_s becomes param_elapsed_s.
extern const char* const kRunTimeViews;

/// Creates "values:<label>" for the campaign (inside the caller's transaction), its columns from the
/// parameters its points have. Replaces an older one of that name.
void create_campaign_view(SQLite::Database& db, std::int64_t campaign_id, const std::string& label);

/// Drops "values:<label>" (inside the caller's transaction) when it exists.
void drop_campaign_view(SQLite::Database& db, const std::string& label);

/// Creates the per-campaign view of every campaign that has none (after a migration to version 4).
void create_missing_campaign_views(SQLite::Database& db);

/// Drops every per-campaign view and creates them again from metric_values' current columns.
void recreate_campaign_views(SQLite::Database& db);

}  // namespace sweep::store
