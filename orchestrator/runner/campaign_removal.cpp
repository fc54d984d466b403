#include "runner/campaign_removal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <optional>

#include "runner/campaign_setup.h"
#include "runner/controller_lock.h"
#include "runner/run_root.h"
#include "store/store.h"
#include "util/error.h"

namespace sweep::runner {
namespace fs = std::filesystem;

namespace {

bool is_directory_entry(int dir_fd, const dirent& e) {
  if (e.d_type != DT_UNKNOWN) return e.d_type == DT_DIR;
  struct stat st {};
  return ::fstatat(dir_fd, e.d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

std::string describe(const store::Store& db, const store::CampaignRecord& c, std::size_t runs, bool keep_files) {
  std::size_t values = db.for_each_metric(c.id, [](const store::MetricRowView&) {});
  std::string pins;
  for (const auto& b : db.baselines())
    if (b.campaign == c.label) pins += fmt::format("; it is pinned as baseline \"{}\", which goes with it", b.name);
  return fmt::format("campaign \"{}\" ({} runs, {} metric values) from {}{}{}", c.label, runs, values, db.path(),
                     keep_files ? fmt::format(", keeping its run directories in {}", c.run_root)
                                : fmt::format(", and its run directories in {}", c.run_root),
                     pins);
}

/// Removes the rows of an imported campaign; its recorded run root is another system's, never a path here.
RemovalSummary remove_imported(store::Store& db, const store::CampaignRecord& c,
                               const std::function<bool(const std::string&)>& confirm) {
  RemovalSummary s{c.label, c.run_root, db.runs(c.id).size(), false, false, true};
  std::string what = describe(db, c, s.runs, true);
  what = what.substr(0, what.find(", keeping its run directories")) +
         fmt::format(", imported from system \"{}\" (its rows only: it has no files here)", c.system);
  if (!confirm(what)) return s;
  db.remove_campaign(c.id);
  s.removed = true;
  return s;
}

/// Deletes a run root that why_not_ours() accepted, through descriptors (remove_tree_at).
void delete_run_root(const std::string& run_root, const std::string& label, const std::string& db_path) {
  const fs::path root(run_root);
  const int parent = ::open(root.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const std::size_t left = parent < 0 ? 1 : remove_tree_at(parent, root.filename().string());
  if (parent >= 0) ::close(parent);
  if (left > 0)
    throw Error(ErrorKind::io, fmt::format("campaign \"{}\" was removed from {}, but {} entr{} of its run root {} could "
                                           "not be removed; remove them by hand",
                                           label, db_path, left, left == 1 ? "y" : "ies", run_root));
}

}  // namespace

std::size_t remove_tree_at(int parent_fd, const std::string& name) {
  const int fd = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    // Not a directory (a symlink included, which O_NOFOLLOW refuses): the entry itself goes.
    if (errno == ENOTDIR || errno == ELOOP) return ::unlinkat(parent_fd, name.c_str(), 0) == 0 ? 0 : 1;
    return errno == ENOENT ? 0 : 1;
  }
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(fd), ::closedir);
  if (!dir) {
    ::close(fd);
    return 1;
  }
  std::size_t left = 0;
  while (const dirent* e = ::readdir(dir.get())) {
    const std::string entry = e->d_name;
    if (entry == "." || entry == "..") continue;
    if (is_directory_entry(fd, *e)) left += remove_tree_at(fd, entry);
    else if (::unlinkat(fd, entry.c_str(), 0) != 0 && errno != ENOENT) ++left;
  }
  dir.reset();
  if (::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) ++left;
  return left;
}

RemovalSummary remove_campaign(const RemoveOptions& o, const std::function<bool(const std::string&)>& confirm) {
  if (!fs::exists(o.db_path)) throw Error(ErrorKind::not_found, fmt::format("no results database at {}", o.db_path));
  store::Store db(o.db_path);
  const auto c = db.find_campaign(o.label);
  if (!c) throw Error(ErrorKind::not_found, fmt::format("no campaign labelled \"{}\" in {}", o.label, o.db_path));
  if (!c->origin_database_id.empty()) return remove_imported(db, *c, confirm);
  std::error_code ec;
  const bool root_exists = fs::symlink_status(c->run_root, ec).type() != fs::file_type::not_found;
  const RunRootMarker marker{fs::absolute(db.path()).lexically_normal().string(), db.database_id(), c->label};
  const std::string problem = root_exists ? why_not_ours(c->run_root, marker) : "";
  if (!o.keep_files && !problem.empty())
    throw Error(ErrorKind::usage, fmt::format("the run root {} of campaign \"{}\" is not provably the campaign's ({}), so "
                                              "sweep deletes nothing of it; remove it by hand, or remove the database rows "
                                              "alone with sweep rm {} --keep-files; nothing was removed",
                                              c->run_root, c->label, problem, c->label));
  std::optional<ControllerLock> lock;  // refused while a controller drives the campaign
  if (root_exists && problem.empty()) lock.emplace(c->run_root, c->label);
  const auto runs = db.runs(c->id);  // read under the lock: no controller changes them now
  RemovalSummary s{c->label, c->run_root, runs.size(), false, false};
  const auto running = std::count_if(runs.begin(), runs.end(), [](const auto& r) { return r.state == store::RunState::running; });
  if (running > 0)
    throw Error(ErrorKind::usage, fmt::format("campaign \"{0}\" has {1} run{2} still running (a detached batch campaign's "
                                              "jobs: sweep cancel {0} first; a local one whose controller died: sweep run "
                                              "--resume {0} records them); nothing was removed",
                                              c->label, running, running == 1 ? "" : "s"));
  if (!confirm(describe(db, *c, s.runs, o.keep_files))) return s;
  db.remove_campaign(c->id);
  s.removed = true;
  if (o.keep_files || !root_exists) return s;
  delete_run_root(c->run_root, c->label, db.path());
  s.files_removed = true;
  return s;
}

}  // namespace sweep::runner
