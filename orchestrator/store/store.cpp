#include "store/store.h"

#include <fmt/core.h>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "store/filesystem.h"
#include "store/schema.h"
#include "store/views.h"
#include "store/sql_helpers.h"
#include "util/error.h"
#include "util/safe_files.h"

namespace sweep::store {
using namespace detail;
namespace {

constexpr std::array<std::string_view, 4> kStateNames{"pending", "running", "succeeded", "failed"};

/// Throws Error(interrupted) once `stop` is set, looking at it every 4,096 calls.
void check_stop(const std::atomic<bool>* stop, std::uint64_t& rows) {
  if (stop && (++rows & 4095u) == 0 && stop->load())
    throw Error(ErrorKind::interrupted, "stopped by a signal while recording the campaign; nothing was recorded");
}

void insert_points(SQLite::Database& db, std::int64_t campaign_id, const std::vector<PointRecord>& points,
                   int repetitions, const std::atomic<bool>* stop) {
  std::uint64_t rows = 0;
  SQLite::Statement point(db, "INSERT INTO points (campaign_id, point_id, ordinal) VALUES (?, ?, ?)");
  SQLite::Statement param(db,
                          "INSERT INTO point_params (campaign_id, point_id, name, value, type, derived, position) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?)");
  SQLite::Statement run(db, "INSERT INTO runs (campaign_id, point_id, repetition, state) VALUES (?, ?, ?, 'pending')");
  for (const auto& p : points) {
    point.bind(1, campaign_id);
    point.bind(2, p.point_id);
    point.bind(3, p.ordinal);
    point.exec();
    point.reset();
    for (std::size_t i = 0; i < p.params.size(); ++i) {
      const auto& pr = p.params[i];
      param.bind(1, campaign_id);
      param.bind(2, p.point_id);
      param.bind(3, pr.name);
      param.bind(4, pr.value);
      param.bind(5, pr.type);
      param.bind(6, pr.derived ? 1 : 0);
      param.bind(7, static_cast<int>(i));
      param.exec();
      param.reset();
    }
    for (int rep = 0; rep < repetitions; ++rep) {
      run.bind(1, campaign_id);
      run.bind(2, p.point_id);
      run.bind(3, rep);
      run.exec();
      run.reset();
      check_stop(stop, rows);
    }
    check_stop(stop, rows);
  }
}

}  // namespace

std::string_view state_name(RunState s) { return kStateNames[static_cast<std::size_t>(s)]; }

RunState state_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kStateNames.size(); ++i)
    if (kStateNames[i] == name) return static_cast<RunState>(i);
  throw Error(ErrorKind::database, fmt::format("unknown run state \"{}\" in the database", name));
}

/// Refuses a database file, or the directory it would be created in, that another user could have
/// planted or can rewrite (util/safe_files.h). The file is checked by stat(2) and, once SQLite opened
/// the path, must still be that file (device and inode). No descriptor of the file is held: closing
/// one would drop the POSIX locks of this process's SQLite connections to it (safe_files.h).
class TrustedDatabaseFile {
 public:
  explicit TrustedDatabaseFile(const std::string& path) : path_(path) {
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    require_trusted(dir.empty() ? "." : dir.string(), "directory of the results database");
    for (const char* sidecar : {"-wal", "-shm", "-journal"})  // SQLite opens these by name, following links
      require_trusted_entry(path + sidecar, "SQLite file of the results database");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) return;  // created by SQLite below, in a trusted directory
      throw Error(ErrorKind::io, fmt::format("cannot inspect the results database {}: {}", path, std::strerror(errno)));
    }
    require_trusted_stat(st, path, "results database");
    checked_ = {st.st_dev, st.st_ino};
  }
  /// After SQLite opened the path: it is still the file that was checked.
  void require_unchanged() const {
    if (!checked_) return;
    struct stat now {};
    if (::stat(path_.c_str(), &now) != 0 || now.st_dev != checked_->first || now.st_ino != checked_->second)
      throw Error(ErrorKind::usage, fmt::format("the results database {} was replaced while sweep opened it", path_));
  }

 private:
  std::string path_;
  std::optional<std::pair<dev_t, ino_t>> checked_;
};

Store::Store(const std::string& path) : path_(path) {
  const TrustedDatabaseFile trusted(path_);
  const auto network = network_filesystem_of(path_);
  if (network) {
    static bool warned = false;  // once per process, however many stores it opens
    if (!warned)
      fmt::print(stderr,
                 "sweep: the results database {} is on {}, where SQLite's WAL mode does not work: it uses a rollback "
                 "journal (readers wait while a controller writes; safe only if the filesystem's locks work). For "
                 "speed and safety put --db on a local disk (docs/database.md)\n",
                 path_, *network);
    warned = true;
  }
  guarded(path_, "open the results database", [&] {
    db_ = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    trusted.require_unchanged();
    prepare_schema(*db_, path_, !network);
  });
}

std::string Store::database_id() const {
  return guarded(path_, "read the database id", [&] { return db_->execAndGet("SELECT database_id FROM schema_info").getString(); });
}

Store::~Store() = default;

void Store::read_consistently(const std::function<void()>& body) const {
  guarded(path_, "begin a read", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::DEFERRED);
    body();
    tx.commit();
  });
}

std::optional<CampaignRecord> Store::find_campaign(std::string_view label) const {
  return guarded(path_, "read campaigns", [&]() -> std::optional<CampaignRecord> {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM campaigns WHERE label = ?", kCampaignColumns));
    q.bind(1, std::string(label));
    if (!q.executeStep()) return std::nullopt;
    return read_campaign(q);
  });
}

std::vector<CampaignRecord> Store::campaigns() const {
  return guarded(path_, "read campaigns", [&] {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM campaigns ORDER BY id", kCampaignColumns));
    std::vector<CampaignRecord> out;
    while (q.executeStep()) out.push_back(read_campaign(q));
    return out;
  });
}

std::int64_t Store::create_campaign(const CampaignRecord& c, const std::vector<PointRecord>& points,
                                    const CampaignSettings& settings, const std::vector<ForecastRecord>& forecast,
                                    const std::atomic<bool>* stop) {
  return guarded(path_, "create campaign " + c.label, [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement q(*db_,
                        "INSERT INTO campaigns (label, experiment, spec_path, spec_text, spec_hash, overrides, executor, "
                        "repetitions, started_at, host, user, tool_version, git_commit, git_dirty, run_root, "
                        "experiment_dir, launch_dir, system, origin_database_id, origin_label) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    int i = 1;
    for (const std::string* s : {&c.label, &c.experiment, &c.spec_path, &c.spec_text, &c.spec_hash, &c.overrides,
                                 &c.executor})
      q.bind(i++, *s);
    q.bind(i++, c.repetitions);
    for (const std::string* s : {&c.started_at, &c.host, &c.user, &c.tool_version, &c.git_commit}) q.bind(i++, *s);
    bind_optional(q, i++, c.git_dirty ? std::optional<int>(*c.git_dirty ? 1 : 0) : std::nullopt);
    for (const std::string* s : {&c.run_root, &c.experiment_dir, &c.launch_dir, &c.system, &c.origin_database_id,
                                 &c.origin_label})
      q.bind(i++, *s);
    q.exec();
    const std::int64_t id = db_->getLastInsertRowid();
    SQLite::Statement s(*db_, "INSERT INTO campaign_settings (campaign_id, name, value) VALUES (?, ?, ?)");
    for (const auto& [name, value] : settings) {
      s.bind(1, id);
      s.bind(2, name);
      s.bind(3, value);
      s.exec();
      s.reset();
    }
    insert_points(*db_, id, points, c.repetitions, stop);
    insert_forecasts(*db_, id, forecast);
    create_campaign_view(*db_, id, c.label);
    tx.commit();
    return id;
  });
}

CampaignSettings Store::campaign_settings(std::int64_t campaign_id) const {
  return guarded(path_, "read campaign settings", [&] {
    SQLite::Statement q(*db_, "SELECT name, value FROM campaign_settings WHERE campaign_id = ?");
    q.bind(1, campaign_id);
    CampaignSettings out;
    while (q.executeStep()) out.emplace(q.getColumn(0).getString(), q.getColumn(1).getString());
    return out;
  });
}

void Store::end_campaign(std::int64_t campaign_id, const std::string& ended_at) {
  guarded(path_, "end campaign", [&] {
    SQLite::Statement q(*db_, "UPDATE campaigns SET ended_at = ? WHERE id = ?");
    if (ended_at.empty()) q.bind(1);  // NULL: running again
    else q.bind(1, ended_at);
    q.bind(2, campaign_id);
    q.exec();
  });
}

std::vector<PointRecord> Store::points(std::int64_t campaign_id) const {
  return guarded(path_, "read points", [&] {
    SQLite::Statement q(*db_,
                        "SELECT p.point_id, p.ordinal, pp.name, pp.value, pp.type, pp.derived FROM points p "
                        "JOIN point_params pp ON pp.campaign_id = p.campaign_id AND pp.point_id = p.point_id "
                        "WHERE p.campaign_id = ? ORDER BY p.ordinal, pp.position");
    q.bind(1, campaign_id);
    std::vector<PointRecord> out;
    while (q.executeStep()) {
      const std::string id = q.getColumn(0).getString();
      if (out.empty() || out.back().point_id != id) out.push_back(PointRecord{id, q.getColumn(1).getInt64(), {}});
      out.back().params.push_back(ParamRecord{q.getColumn(2).getString(), q.getColumn(3).getString(),
                                              q.getColumn(4).getString(), q.getColumn(5).getInt() != 0});
    }
    return out;
  });
}

std::vector<RunRecord> Store::runs(std::int64_t campaign_id) const {
  return guarded(path_, "read runs", [&] {
    SQLite::Statement q(*db_, fmt::format("SELECT {} FROM runs r JOIN points p ON p.campaign_id = r.campaign_id "
                                          "AND p.point_id = r.point_id WHERE r.campaign_id = ? "
                                          "ORDER BY p.ordinal, r.repetition",
                                          kRunColumns));
    q.bind(1, campaign_id);
    std::vector<RunRecord> out;
    while (q.executeStep()) out.push_back(read_run(q));
    return out;
  });
}

std::vector<RunRecord> Store::add_runs(std::int64_t campaign_id, const std::vector<std::pair<std::string, int>>& more) {
  return guarded(path_, "add runs", [&] {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement last(*db_, "SELECT max(repetition) FROM runs WHERE campaign_id = ? AND point_id = ?");
    SQLite::Statement add(*db_, "INSERT INTO runs (campaign_id, point_id, repetition, state) VALUES (?, ?, ?, 'pending')");
    std::vector<std::pair<int, RunRecord>> added;  // (k-th new run of its point, run), in the order given
    for (const auto& [point_id, count] : more) {
      last.bind(1, campaign_id);
      last.bind(2, point_id);
      if (!last.executeStep() || last.getColumn(0).isNull())
        throw Error(ErrorKind::internal, fmt::format("point {} has no runs in campaign {}", point_id, campaign_id));
      const int first = last.getColumn(0).getInt() + 1;
      last.reset();
      for (int k = 0; k < count; ++k) {
        add.bind(1, campaign_id);
        add.bind(2, point_id);
        add.bind(3, first + k);
        add.exec();
        add.reset();
        RunRecord r;
        r.id = db_->getLastInsertRowid();
        r.campaign_id = campaign_id;
        r.point_id = point_id;
        r.repetition = first + k;
        added.emplace_back(k, std::move(r));
      }
    }
    tx.commit();
    std::stable_sort(added.begin(), added.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<RunRecord> out;
    for (auto& entry : added) out.push_back(std::move(entry.second));
    return out;
  });
}

std::vector<StateCount> Store::state_counts(std::int64_t campaign_id) const {
  return guarded(path_, "count runs", [&] {
    std::vector<StateCount> out;
    for (std::size_t i = 0; i < kStateNames.size(); ++i) out.push_back({static_cast<RunState>(i), 0});
    SQLite::Statement q(*db_, "SELECT state, count(*) FROM runs WHERE campaign_id = ? GROUP BY state");
    q.bind(1, campaign_id);
    while (q.executeStep())
      out[static_cast<std::size_t>(state_from_name(q.getColumn(0).getString()))].count = q.getColumn(1).getInt64();
    return out;
  });
}

}  // namespace sweep::store
