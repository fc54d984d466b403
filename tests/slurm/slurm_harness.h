#pragma once
// Helpers of the Slurm integration tests: the development cluster's facts, shell commands, waiting.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "e2e/harness.h"

namespace slurmtest {

/// The cluster's SLURM_CONF; fails the test with instructions when it is not set.
std::string slurm_conf();
/// The cluster's state directory (where slurm.conf, pids/ and jobcomp.txt live).
std::string state_dir();

/// `prefix` plus the sandbox's random suffix: job names stay unique across runs of the suite on one
/// cluster (its jobcomp file keeps every job ever run).
std::string unique_label(const e2e::Sandbox& box, const std::string& prefix);

using e2e::shell;

/// Polls `done` every 200 ms until it returns true; fails the test naming `what` after `timeout`.
void wait_until(const std::function<bool()>& done, std::chrono::seconds timeout, const std::string& what);

/// The first line of `squeue` for jobs named like `name_prefix*` with format `format` ("" when none).
std::string squeue_field(const std::string& name_prefix, const std::string& format);

/// A single value of an SQL query on the sandbox's results database ("" when no row).
std::string query(const e2e::Sandbox& box, const std::string& sql);
/// Every row of an SQL query on the sandbox's results database, each column as text; fails the test
/// when the query cannot run.
std::vector<std::vector<std::string>> rows_of(const e2e::Sandbox& box, const std::string& sql);

/// Puts both nodes back in service when it goes out of scope (tests that take a node down).
struct NodesRestored {
  ~NodesRestored();
};

/// A PATH whose `sbatch` is the real one wrapped to log each submission to <dir>/sbatch.log (and to wait
/// $SWEEP_TEST_SBATCH_DELAY seconds first, writing its pid to <dir>/sbatch.pid): a real sbatch,
/// slowed and counted, not a fake. Returns the PATH value to set.
std::string counting_sbatch(const e2e::Sandbox& box);

/// A PATH whose `commands` (squeue, scontrol, sacct, ...) are the real ones wrapped to log each call to
/// <dir>/slurm.log: a line "> command args" followed by the lines it printed, each indented by two
/// spaces. A call's record is appended whole, under flock(1): a job script's own calls (its provenance
/// `scontrol show job`) run beside the driver's and must not split them. Real commands, observed, not
/// fakes. Returns the PATH value to set.
std::string logging_slurm(const e2e::Sandbox& box, const std::vector<std::string>& commands);

/// Watches how busy the machine is while a case measures speed-ups: the 1-minute load average
/// (/proc/loadavg), read every 2 s from construction until verdict(). A speed-up measured while other
/// work shares the cores says nothing about the code (e15's DP scaling measured T_1/(2 T_2) = 0.42 to
/// 0.48 beside a CPU burner, where an idle machine gives 0.80).
class LoadWatch {
 public:
  LoadWatch();
  ~LoadWatch();
  LoadWatch(const LoadWatch&) = delete;
  LoadWatch& operator=(const LoadWatch&) = delete;
  /// Stops watching. Empty when the machine was quiet enough to measure: the mean load stayed at most
  /// `own` (the runnable processes the case itself keeps, e.g. 2 ranks) plus half the cores. Otherwise
  /// says what was seen, for the case to WARN and leave its speed-up assertions out.
  std::string verdict(double own);

 private:
  void stop();  // ends the readings (once; later calls do nothing)
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace slurmtest
