#pragma once
// The executors a campaign can name: the embedded local one and the batch schedulers. This table is
// where an executor's name is given; the experiment and the site are validated against it, and
// runner/executors.cpp builds each batch executor's Scheduler.
#include <array>
#include <string>
#include <string_view>

namespace sweep::sched {

struct Executor {
  std::string_view name;
  bool batch;  // a batch scheduler (runner/batch_driver.h), not the local executor
};

inline constexpr std::array<Executor, 2> kExecutors{{{"local", false}, {"slurm", true}}};
inline constexpr std::array<std::string_view, 2> kExecutorNames{kExecutors[0].name, kExecutors[1].name};

/// Whether `name` is a batch executor (false for local and for names not in the table).
constexpr bool is_batch(std::string_view name) {
  for (const Executor& e : kExecutors)
    if (e.name == name) return e.batch;
  return false;
}

/// The batch executors' names, "slurm" (joined with " or " when there are several), for messages.
inline std::string batch_names() {
  std::string out;
  for (const Executor& e : kExecutors)
    if (e.batch) out += (out.empty() ? "" : " or ") + std::string(e.name);
  return out;
}

}  // namespace sweep::sched
