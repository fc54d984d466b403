#include "e2e/harness.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace e2e {
namespace fs = std::filesystem;

Sandbox::Sandbox() {
  // The machine's own site file (~/.config/sweep/site.yaml, /etc/sweep/site.yaml) never reaches a test;
  // a test of site files names its file with --site, which wins over this.
  ::setenv("SWEEP_SITE", "none", 1);
  std::string templ = (fs::temp_directory_path() / "sweep-e2e-XXXXXX").string();
  if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = templ;
}

Sandbox::~Sandbox() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string Sandbox::write(const std::string& rel, const std::string& text) const {
  const fs::path p = dir_ / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

namespace {

int spawn(const fs::path& cwd, const std::vector<std::string>& args, const std::string& out, const std::string& err) {
  std::vector<std::string> argv{SWEEP_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, SWEEP_BIN.c_str(), &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot spawn " + SWEEP_BIN);
  return pid;
}

}  // namespace

Result Sandbox::sweep(const std::vector<std::string>& args) const {
  const std::string out = path(".sweep.out"), err = path(".sweep.err");
  const int pid = spawn(dir_, args, out, err);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

int Sandbox::spawn_sweep(const std::vector<std::string>& args) const {
  return spawn(dir_, args, path(".sweep.bg.out"), path(".sweep.bg.err"));
}

SQLite::Database Sandbox::db() const { return SQLite::Database(path("results/sweep.db"), SQLite::OPEN_READONLY); }

std::map<std::string, int> count_lines(const std::string& path) {
  std::map<std::string, int> counts;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);) ++counts[line];
  return counts;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_speed_experiment(const Sandbox& box, int repetitions) {
  box.write("speed.yaml", "name: speed\ntelemetry: false\nmatrix:\n  n: [1, 2]\nrepetitions: " + std::to_string(repetitions) +
                              "\nworkload:\n  command: >-\n"
                              "    echo \"{\\\"v\\\": 1, \\\"metric\\\": \\\"speed\\\", \\\"value\\\": $(( {{n}} * 1000 + "
                              "{{repetition}} + $(cat " + box.path("shift-{{n}}.txt") + ") )), \\\"unit\\\": \\\"it/s\\\", "
                              "\\\"better\\\": \\\"higher\\\"}\"\n");
}

std::string repo_file(const std::string& rel) { return std::string(SWEEP_SOURCE_DIR) + "/" + rel; }

long long scalar(SQLite::Database& db, const std::string& sql) { return db.execAndGet(sql).getInt64(); }

Result shell(const std::string& command) {
  Sandbox scratch;
  const std::string out = scratch.path("out"), err = scratch.path("err");
  const std::string script = scratch.write("cmd.sh", command + "\n");
  const int rc = std::system(("sh " + script + " > " + out + " 2> " + err).c_str());
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : 128, read_file(out), read_file(err)};
}

}  // namespace e2e
