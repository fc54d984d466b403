#pragma once
// Runs the real `sweep` binary in a scratch directory and reads back what it left behind.
#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace e2e {

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// A scratch directory (removed at scope exit) in which `sweep` runs with --results/--reports there.
class Sandbox {
 public:
  Sandbox();
  ~Sandbox();
  const std::filesystem::path& dir() const { return dir_; }
  std::string path(const std::string& rel) const { return (dir_ / rel).string(); }
  /// Writes a file relative to the sandbox and returns its path.
  std::string write(const std::string& rel, const std::string& text) const;
  /// Runs `sweep <args>` with cwd = the sandbox; args are passed as separate words.
  Result sweep(const std::vector<std::string>& args) const;
  /// Starts `sweep <args>` in the background and returns its pid (stdout/stderr to files).
  int spawn_sweep(const std::vector<std::string>& args) const;
  /// The results database (must exist).
  SQLite::Database db() const;

 private:
  std::filesystem::path dir_;
};

/// Reads a whole file ("" if missing).
std::string read_file(const std::string& path);
/// How many times each line occurs in a file (a ledger that runs append to): line -> count.
std::map<std::string, int> count_lines(const std::string& path);
/// An experiment from the repository (experiments/<name>).
std::string repo_file(const std::string& rel);

/// Writes speed.yaml into the sandbox: points n = 1 and 2, `repetitions` each, whose metric speed
/// (it/s, higher is better) is 1000·n + the repetition + the number in shift-<n>.txt, which the caller
/// writes before each campaign. Telemetry off: the verdicts these tests assert are of speed alone.
void write_speed_experiment(const Sandbox& box, int repetitions);

/// Runs `command` with sh and returns its exit code and output.
Result shell(const std::string& command);

/// Single value of an SQL query.
long long scalar(SQLite::Database& db, const std::string& sql);

}  // namespace e2e
