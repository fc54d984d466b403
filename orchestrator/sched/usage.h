#pragma once
// What a batch scheduler's accounting says a job used and what it was given, in terms every scheduler
// shares: the usage figures the batch driver stores as ordinary metrics of the run (runner/job_usage.h)
// and the request it stores as provenance. The scheduler's module reads its own output into these
// (slurm/usage.h). Every figure is optional: accounting may lack any of them, and a run never fails for that.
#include <optional>
#include <string>

namespace sweep::sched {

struct JobUsage {
  std::string job_id;                 // the allocation's id: the array task's "123_4", or a plain job's "123"
  std::string array_job_id;           // "123"; "" when not part of an array
  std::optional<int> task;            // the array task id; nullopt for a plain job
  std::optional<double> elapsed_s;    // the allocation's wall time
  std::optional<double> cpu_time_s;   // user + system CPU seconds of every step and task together
  std::optional<double> max_rss_mib;  // the largest resident memory of one task, over every step
  std::optional<double> energy_j;     // consumed energy; nullopt when the energy plugin gave none (0)
  // What the job was given, as the scheduler writes it ("" / nullopt when it did not say).
  std::string req_mem;    // "4G" (Slurm's ReqMem)
  std::string timelimit;  // "01:00:00"
  std::optional<int> alloc_cpus;
  std::optional<int> alloc_gpus;
};

}  // namespace sweep::sched
