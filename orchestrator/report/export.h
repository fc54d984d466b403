#pragma once
// `sweep export <campaign>`: every metric value of the campaign's runs (their latest attempts) as one
// long table, streamed: CSV with a header, or JSON lines (docs/database.md "Export", format 2).
#include <cstddef>
#include <cstdio>
#include <string>

namespace sweep::store {
class Store;
}

namespace sweep::report {

enum class ExportFormat { csv, jsonl };

/// Columns: campaign, point_id, one per parameter (typed; "param_<name>" for a name a column has),
/// repetition, attempt, state, elapsed_s (the run's wall time; empty or null while unknown), metric,
/// idx, value, unit, better: the names of the database's views. Every JSON line carries "v": 3.
/// Error(not_found) for an unknown label. Returns the rows written.
std::size_t export_campaign(const store::Store& db, const std::string& label, ExportFormat format, std::FILE* out);

}  // namespace sweep::report
