#include "runner/run_root.h"

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "util/error.h"
#include "util/safe_files.h"
#include "util/strings.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

std::string marker_path(const std::string& run_root) { return run_root + "/" + kRunRootMarker; }

/// The marker's text, or nullopt when there is no marker (a symlink there reads as a foreign one).
std::optional<std::string> read_marker(const std::string& run_root) {
  struct stat st {};
  const std::string path = marker_path(run_root);
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return std::string("not a marker");
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Whether `path` is a real directory of this user's that nobody else can write.
bool own_private_directory(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/// A run root that `sweep run --dry-run --label L` made before the campaign L: the user's own private
/// directory holding nothing but dry-run/ (the dry run's scripts), which the campaign may take.
bool dry_run_root(const std::string& run_root) {
  if (!own_private_directory(run_root)) return false;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run_root, ec))
    if (entry.path().filename() != "dry-run" && entry.path().filename() != kControllerLockFile) return false;
  return !ec && own_private_directory(run_root + "/dry-run");
}

}  // namespace

std::string marker_text(const RunRootMarker& m) {
  return fmt::format("format={}\ndatabase={}\ndatabase_id={}\ncampaign={}\n", kRunRootMarkerFormat, m.database,
                     m.database_id, m.campaign);
}

std::optional<RunRootMarker> parse_marker(std::string_view text) {
  RunRootMarker m;
  bool format = false;
  for (const auto& line : split(std::string(text), '\n')) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "format") format = value == std::to_string(kRunRootMarkerFormat);
    else if (key == "database") m.database = value;
    else if (key == "database_id") m.database_id = value;
    else if (key == "campaign") m.campaign = value;
  }
  if (!format || m.database_id.empty() || m.campaign.empty()) return std::nullopt;
  return m;
}

void require_label_clear_of_database(const std::string& label, const std::string& results_dir, const std::string& db_path) {
  const fs::path root = fs::absolute(fs::path(results_dir) / label).lexically_normal();
  const fs::path db = fs::absolute(db_path).lexically_normal();
  if (root.parent_path() != db.parent_path()) return;
  const std::string name = root.filename().string(), db_name = db.filename().string();
  if (name == db_name || name.rfind(db_name + "-", 0) == 0)
    throw Error(ErrorKind::usage,
                fmt::format("the label \"{}\" would make the run root {}, which is the results database or one of "
                            "SQLite's files beside it ({}-journal, -wal, -shm); choose another --label",
                            label, root.string(), db_name));
}

/// Whether `run_root` is what a controller killed while creating this campaign left: this user's private
/// directory holding nothing, or only its marker naming this database and campaign. Adopting it loses
/// nothing and trusts nothing another user could have put there.
bool left_by_a_killed_start(const std::string& run_root, const RunRootMarker& marker) {
  struct stat st {};
  if (::lstat(run_root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !own_private_directory(run_root)) return false;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(run_root, ec))
    if (entry.path().filename() != kRunRootMarker && entry.path().filename() != kControllerLockFile) return false;
  if (ec) return false;
  const auto text = read_marker(run_root);
  if (!text) return true;
  // A kill while the marker was being written leaves a prefix of it (an empty file at the least).
  if (marker_text(marker).rfind(*text, 0) == 0) return true;
  const auto found = parse_marker(*text);
  return found && found->database_id == marker.database_id && found->campaign == marker.campaign;
}

void create_run_root(const std::string& run_root, const RunRootMarker& marker, std::optional<ControllerLock>& lock) {
  bool adopted = true;
  if (!dry_run_root(run_root)) {
    try {
      make_new_directory(run_root, "run root");
      adopted = false;
    } catch (const Error&) {
      if (!left_by_a_killed_start(run_root, marker)) throw;
    }
  }
  // Another `sweep run` of this label may have made it (or taken it as a killed start's) a moment ago:
  // whoever holds the lock goes on, the other is refused here, having written nothing.
  lock.emplace(run_root, marker.campaign);
  if (adopted && !dry_run_root(run_root) && !left_by_a_killed_start(run_root, marker)) {
    lock.reset();  // a start that held it meanwhile left runs there
    throw directory_exists_error(run_root, "run root");
  }
  const auto text = read_marker(run_root);
  if (!text) write_new_file(marker_path(run_root), marker_text(marker), 0644);
  else if (*text != marker_text(marker)) replace_own_file(marker_path(run_root), marker_text(marker), 0644);
}

std::string why_not_ours(const std::string& run_root, const RunRootMarker& marker) {
  struct stat st {};
  if (::lstat(run_root.c_str(), &st) != 0) return "it cannot be inspected";
  if (!S_ISDIR(st.st_mode)) return "it is not a directory (a symlink or a file is never followed)";
  if (!own_private_directory(run_root)) return "it is another user's or writable by others";
  const auto text = read_marker(run_root);
  const auto found = text ? parse_marker(*text) : std::nullopt;
  if (!found) return fmt::format("it has no marker of sweep's ({})", kRunRootMarker);
  if (found->database_id != marker.database_id || found->campaign != marker.campaign)
    return fmt::format("its marker names campaign \"{}\" of the database {} (id {})", found->campaign, found->database,
                       found->database_id);
  return "";
}

void claim_run_root(const std::string& run_root, const RunRootMarker& marker, std::optional<ControllerLock>& lock) {
  // Its parent first: where others could rename the run root away and put theirs in its place.
  require_trusted(fs::path(run_root).parent_path().string(), "results directory");
  struct stat st {};
  if (::lstat(run_root.c_str(), &st) != 0) {
    if (errno != ENOENT) throw Error(ErrorKind::io, fmt::format("cannot inspect the run root {}", run_root));
    create_run_root(run_root, marker, lock);
    return;
  }
  if (!S_ISDIR(st.st_mode))
    throw Error(ErrorKind::usage, fmt::format("the run root {} of campaign \"{}\" is not a directory (a symlink or a "
                                              "file is never followed); remove it or move the campaign",
                                              run_root, marker.campaign));
  if (!own_private_directory(run_root))
    throw Error(ErrorKind::usage,
                fmt::format("the run root {} of campaign \"{}\" is not a directory sweep made for you (it is another "
                            "user's, or writable by others); sweep never adopts it (if it is yours, from a sweep "
                            "before run-root markers, `chmod go-w` it and resume again)",
                            run_root, marker.campaign));
  auto text = read_marker(run_root);
  if (!text) {
    try {
      write_new_file(marker_path(run_root), marker_text(marker), 0644);
      text = marker_text(marker);
    } catch (const Error&) {  // another controller marked it first: its marker decides
      text = read_marker(run_root);
      if (!text) throw;
    }
  }
  const auto found = parse_marker(*text);
  if (found && found->database_id == marker.database_id && found->campaign == marker.campaign) {
    lock.emplace(run_root, marker.campaign);
    return;
  }
  throw Error(ErrorKind::usage,
              fmt::format("the run root {} belongs to {}, not to campaign \"{}\" of the database {} (id {}); sweep "
                          "never adopts another database's runs: give each database its own --results directory",
                          run_root,
                          found ? fmt::format("campaign \"{}\" of the database {} (id {})", found->campaign,
                                              found->database, found->database_id)
                                : std::string("no campaign of sweep's (its marker is not sweep's)"),
                          marker.campaign, marker.database, marker.database_id));
}

void make_attempt_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0) return;
  if (errno != EEXIST) make_new_directory(dir, "attempt directory");  // throws the error
  if (!own_private_directory(dir))
    throw Error(ErrorKind::usage,
                fmt::format("the attempt directory {} exists and is not one sweep made (a symlink, another user's, "
                            "or writable by others); refusing to use it",
                            dir));
  fs::remove_all(dir);
  make_new_directory(dir, "attempt directory");
}

}  // namespace sweep::runner
