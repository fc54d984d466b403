#pragma once
// The batch driver's unit-test rig: a real experiment file, a real SQLite file and run directories in a
// temporary directory, the scripted scheduler (tests/support/scripted_scheduler.h) that runs each task's
// script for real, and a manual clock whose waits pass at once.
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/core.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <string>

#include "runner/batch_driver.h"
#include "runner/campaign_setup.h"
#include "support/manual_clock.h"
#include "support/scripted_scheduler.h"
#include "temp_dir.h"

namespace batchtest {

using namespace sweep;

/// A Slurm experiment of `points` values of n whose workload prints "value: <n>" (with `extra` YAML lines).
inline std::string experiment(const std::string& n_values = "[1, 2]", const std::string& extra = "",
                              const std::string& command = "echo \"value: {{n}}\"") {
  return fmt::format("name: e\nexecutor: slurm\nmatrix: {{n: {}}}\nresources: {{time: 5}}\n{}workload: {{command: '{}'}}\n"
                     "metrics: [{{name: value, better: higher, regex: 'value: (?<value>\\d+)'}}]\n",
                     n_values, extra, command);
}

struct Rig {
  TempDir tmp;
  testing::ScriptedCluster cluster;
  testing::ManualClock clock;
  std::atomic<bool> stop{false};
  runner::RunOptions options;
  std::unique_ptr<store::Store> db;

  explicit Rig(const std::string& yaml) {
    std::ofstream(tmp.file("e.yaml")) << yaml;
    options.experiment_path = tmp.file("e.yaml");
    options.results_dir = tmp.file("results");
    options.db_path = tmp.file("sweep.db");
    options.template_dir = (std::filesystem::path(SWEEP_SOURCE_DIR) / "templates").string();
    options.label = "batch";
    cluster.stop = &stop;  // a driver that would wait forever stops after cluster.max_queries, and its test fails
  }

  /// Drives the campaign once in `mode` (a resume once it exists), as run_campaign and collect do.
  runner::RunSummary drive(runner::BatchMode mode) {
    if (db) {
      options.resume = options.label;
      options.experiment_path.clear();
    }
    runner::Resolved resolved = runner::resolve(options, db.get(), clock);
    runner::CampaignPlan plan(resolved.experiment, options.template_dir, runner::PlanUse::run, UINT64_MAX);
    if (!db) {
      std::filesystem::create_directories(options.results_dir);
      db = std::make_unique<store::Store>(options.db_path);
    }
    return runner::run_batch_campaign(options, std::move(plan), std::move(resolved), *db, stop, mode,
                                      cluster.scheduler(), clock);
  }

  /// One value of an SQL query of the results database ("" for NULL).
  std::string query(const std::string& sql) const {
    SQLite::Database d(options.db_path);
    SQLite::Statement q(d, sql);
    if (!q.executeStep() || q.getColumn(0).isNull()) return "";
    return q.getColumn(0).getString();
  }

  std::string read(const std::string& path) const {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
};

}  // namespace batchtest
