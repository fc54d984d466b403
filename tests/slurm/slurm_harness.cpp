#include "slurm/slurm_harness.h"

#include <catch2/catch.hpp>

#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <filesystem>
#include <sstream>
#include <thread>

#include <SQLiteCpp/Statement.h>

namespace slurmtest {
namespace fs = std::filesystem;

std::string slurm_conf() {
  const char* conf = std::getenv("SLURM_CONF");
  if (!conf || !*conf)
    FAIL("SLURM_CONF is not set: start the development cluster with  eval \"$(scripts/slurm-dev-cluster up)\"");
  return conf;
}

std::string state_dir() { return fs::path(slurm_conf()).parent_path().string(); }

std::string unique_label(const e2e::Sandbox& box, const std::string& prefix) {
  const std::string dir = box.dir().filename().string();
  return prefix + "-" + dir.substr(dir.size() - 6);
}

void wait_until(const std::function<bool()>& done, std::chrono::seconds timeout, const std::string& what) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) FAIL("timed out waiting for " << what);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

std::string squeue_field(const std::string& name_prefix, const std::string& format) {
  std::istringstream lines(shell("squeue -h -o '%j|" + format + "'").out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(name_prefix, 0) == 0) return line.substr(line.find('|') + 1);
  return "";
}

std::string query(const e2e::Sandbox& box, const std::string& sql) {
  if (!fs::exists(box.path("results/sweep.db"))) return "";
  try {
    auto db = box.db();
    SQLite::Statement q(db, sql);
    return q.executeStep() ? q.getColumn(0).getString() : "";
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<std::vector<std::string>> rows_of(const e2e::Sandbox& box, const std::string& sql) {
  INFO(sql);
  auto db = box.db();
  SQLite::Statement q(db, sql);
  std::vector<std::vector<std::string>> rows;
  while (q.executeStep()) {
    rows.emplace_back();
    for (int c = 0; c < q.getColumnCount(); ++c) rows.back().push_back(q.getColumn(c).getString());
  }
  return rows;
}

NodesRestored::~NodesRestored() {
  shell("scontrol update nodename=n1,n2 state=resume 2>/dev/null; true");
}

std::string counting_sbatch(const e2e::Sandbox& box) {
  const std::string bin = box.path("bin");
  fs::create_directories(bin);
  const std::string real = shell("command -v sbatch").out;
  box.write("bin/sbatch", "#!/bin/sh\n"
                          "[ \"$1\" = --version ] && exec " + real.substr(0, real.find('\n')) + " \"$@\"\n"
                          "echo \"$$\" > " + box.path("sbatch.pid") + "\n"
                          "echo call >> " + box.path("sbatch.log") + "\n"
                          "sleep \"${SWEEP_TEST_SBATCH_DELAY:-0}\"\n"
                          "exec " + real.substr(0, real.find('\n')) + " \"$@\"\n");
  fs::permissions(bin + "/sbatch", fs::perms::owner_all);
  return bin + ":" + std::getenv("PATH");
}

std::string logging_slurm(const e2e::Sandbox& box, const std::vector<std::string>& commands) {
  const std::string bin = box.path("bin");
  fs::create_directories(bin);
  for (const std::string& cmd : commands) {
    std::string real = shell("command -v " + cmd).out;
    real = real.substr(0, real.find('\n'));
    box.write("bin/" + cmd, "#!/bin/sh\n"
                            "out=$(mktemp)\n"
                            + real + " \"$@\" > \"$out\"; rc=$?\n"
                            "cat \"$out\"\n"
                            // one record a call, whole: the job scripts' own calls run beside the driver's
                            "{ flock 9; { echo \"> " + cmd + " $*\"; sed 's/^/  /' \"$out\"; } >> " + box.path("slurm.log") + "; } 9>> " + box.path("slurm.log.lock") + "\n"
                            "rm -f \"$out\"\n"
                            "exit $rc\n");
    fs::permissions(bin + "/" + cmd, fs::perms::owner_all);
  }
  return bin + ":" + std::getenv("PATH");
}

struct LoadWatch::State {
  std::mutex mutex;
  std::condition_variable stop;
  bool stopping = false;
  std::vector<double> loads;  // 1-minute load averages, one every 2 s
  std::thread thread;
};

LoadWatch::LoadWatch() : state_(std::make_unique<State>()) {
  state_->thread = std::thread([s = state_.get()] {
    std::unique_lock lock(s->mutex);
    do {
      double load = 0;
      std::ifstream("/proc/loadavg") >> load;
      s->loads.push_back(load);
    } while (!s->stop.wait_for(lock, std::chrono::seconds(2), [s] { return s->stopping; }));
  });
}

LoadWatch::~LoadWatch() { stop(); }

void LoadWatch::stop() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->stop.notify_all();
  if (state_->thread.joinable()) state_->thread.join();
}

std::string LoadWatch::verdict(double own) {
  stop();
  double sum = 0;
  for (double l : state_->loads) sum += l;
  const double mean = state_->loads.empty() ? 0 : sum / static_cast<double>(state_->loads.size());
  const double cores = std::thread::hardware_concurrency();
  if (mean <= own + cores / 2) return "";
  std::ostringstream out;
  out << "the machine was too busy to measure speed-ups: a mean load of " << mean << " over "
      << state_->loads.size() << " readings, against the " << own << " runnable processes of this case and "
      << cores << " cores";
  return out.str();
}

}  // namespace slurmtest
