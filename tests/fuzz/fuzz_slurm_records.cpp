// libFuzzer target: Slurm's job records (slurm/job_record.h) on arbitrary bytes: the same text read as
// squeue -O output, as a jobcomp/filetxt file and as sacct -P output, with each record's array range
// expanded and its fields split. Never throws by contract: malformed lines are skipped.
#include <string_view>
#include <vector>

#include "slurm/job_record.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace sweep::slurm;
  using Parser = std::vector<JobRecord> (*)(std::string_view);
  for (const Parser parse : {&parse_squeue, &parse_jobcomp, &parse_sacct})
    for (const JobRecord& job : parse(text)) {
      (void)expand_task_ids(job.array_tasks);
      (void)job.task_id();
    }
  (void)key_values(text);
  (void)parse_duration(text);
  return 0;
}
