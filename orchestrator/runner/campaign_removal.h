#pragma once
// `sweep rm <label>`: a campaign's rows and its run root removed, after the caller's confirmation;
// refused while a controller drives it. Only a run root whose marker says it is this campaign's is
// deleted, and no symlink in it is ever followed (docs/campaigns.md, "Removing a campaign").
#include <functional>
#include <string>

namespace sweep::runner {

struct RemoveOptions {
  std::string db_path;
  std::string label;
  bool keep_files = false;  // --keep-files: the database rows only; the run root stays as it is
};

struct RemovalSummary {
  std::string label;
  std::string run_root;
  std::size_t runs = 0;
  bool removed = false;        // false: `confirm` answered no, and nothing changed
  bool files_removed = false;
  bool imported = false;       // a campaign `sweep import` brought in: its rows only, it has no files here
};

/// Removes every entry of the directory `name` in the directory `parent_fd`, then the directory,
/// through descriptors: a symlink is removed, never followed; a directory replaced by a symlink while
/// it runs is not entered. Returns the entries that could not be removed (0 when all were).
std::size_t remove_tree_at(int parent_fd, const std::string& name);

/// Removes the campaign `label`: describes what would go (runs, values, run root, baselines pinned to
/// it) to `confirm`, and, when it answers true, deletes the rows in one transaction, then the run root.
/// Error(usage) while a controller drives the campaign or a run of it is running (a detached Slurm
/// campaign's queued jobs), or when the run root is not provably the
/// campaign's (nothing removed; --keep-files removes the rows alone); Error(not_found) for an unknown
/// label; Error(io) naming the run root when some of its files could not be removed (the rows are gone).
/// Returns removed false, nothing changed, when `confirm` answers false. An imported campaign
/// (docs/forecasts.md) loses its rows only: its run_root came from another system and is never touched.
RemovalSummary remove_campaign(const RemoveOptions& options, const std::function<bool(const std::string&)>& confirm);

}  // namespace sweep::runner
