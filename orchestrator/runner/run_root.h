#pragma once
// A campaign's run root (<results>/<label>) and its attempt directories, made so that neither another
// user nor another database can have sweep adopt, follow or overwrite them (docs/campaigns.md, "Run
// roots"; docs/reliability.md). Internal to runner/.
//
// A run root carries a marker, <run root>/.sweep-run-root, format 1:
//   format=1
//   database=<absolute path of the database>
//   database_id=<schema_info.database_id>
//   campaign=<label>
// A run root whose marker names another database id or campaign is never used.
#include <optional>
#include <string>
#include <string_view>

#include "runner/controller_lock.h"

namespace sweep::runner {

inline constexpr const char* kRunRootMarker = ".sweep-run-root";
inline constexpr int kRunRootMarkerFormat = 1;

struct RunRootMarker {
  std::string database;     // the path the database was opened by (for the messages)
  std::string database_id;  // what identifies it
  std::string campaign;     // the label
};

/// The marker's text. Pure.
std::string marker_text(const RunRootMarker& marker);
/// A marker read back; nullopt when `text` is not a format-1 marker. Pure.
std::optional<RunRootMarker> parse_marker(std::string_view text);

/// Refuses (Error(usage)) a label whose run root, <results_dir>/<label>, would be the database file or
/// one of SQLite's files beside it (<db>-journal, -wal, -shm, ...). Pure but for making paths absolute.
void require_label_clear_of_database(const std::string& label, const std::string& results_dir, const std::string& db_path);

/// A new campaign's run root: mkdir that fails when anything is at `run_root` (Error(usage) naming
/// it), then its marker, created new. The directories taken as they are, the user's own and writable by
/// nobody else: one holding only the dry-run/ that `sweep run --dry-run` of this label left, and one
/// holding nothing, or only its marker naming this database and campaign (a controller killed between
/// making it and recording the campaign). `lock` takes the campaign's controller lock (controller_lock.h)
/// right after the mkdir, before the marker, and holds it on return: of two `sweep run` of one new label
/// at once, the one that does not hold it is refused (Error(usage) naming the holder's pid) before it
/// writes anything, and what was taken as left by a killed start is checked again under the lock.
void create_run_root(const std::string& run_root, const RunRootMarker& marker, std::optional<ControllerLock>& lock);

/// An existing campaign's run root, before a resume, collect or rerun touches it: in a trusted results
/// directory (util/safe_files.h), a real directory of
/// the user's own that nobody else can write, whose marker names this database id and campaign. A missing run root is made
/// anew (create_run_root); such a directory without a marker (made before schema version 5) is adopted
/// once and marked. Anything else is Error(usage) naming the database it belongs to. On return `lock`
/// holds the campaign's controller lock (refused, Error(usage), while another controller drives it).
void claim_run_root(const std::string& run_root, const RunRootMarker& marker, std::optional<ControllerLock>& lock);

/// Why sweep may not delete `run_root` (sweep rm), or "" when it may: a real directory (never a
/// symlink), the user's own and writable by nobody else, whose marker names this database id and
/// campaign. An unmarked directory is never taken for the campaign's.
std::string why_not_ours(const std::string& run_root, const RunRootMarker& marker);

/// An attempt's directory inside a claimed run root, made new. A directory left there by a controller
/// killed before it recorded the attempt (a real directory, the user's own, writable by nobody else)
/// is removed and made again; anything else at `dir` is Error(usage).
void make_attempt_directory(const std::string& dir);

}  // namespace sweep::runner
