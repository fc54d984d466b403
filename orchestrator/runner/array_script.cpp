#include "runner/array_script.h"

#include <fmt/core.h>

namespace sweep::runner {

std::string array_range(std::size_t count, std::size_t max_running) {
  std::string out = count <= 1 ? "0" : fmt::format("0-{}", count - 1);
  if (max_running > 0) out += fmt::format("%{}", max_running);
  return out;
}

std::string array_job_name(const std::string& campaign, std::int64_t submission) {
  return fmt::format("sweep-{}-s{}", campaign, submission);
}

templating::Variables array_variables(const std::string& campaign, std::int64_t submission, const std::string& dir,
                                      std::size_t tasks, std::size_t max_running, std::string_view prefix,
                                      const std::vector<std::string>& directives) {
  std::string sbatch_lines;
  for (const auto& directive : directives)
    if (!directive.empty()) sbatch_lines += fmt::format("{} {}\n", prefix, directive);
  return {{"campaign", campaign},
          {"submission", std::to_string(submission)},
          {"job_name", array_job_name(campaign, submission)},
          {"tag", fmt::format("sweep:{}:{}", campaign, submission)},
          {"array", array_range(tasks, max_running)},
          {"submission_dir", dir},
          {"tasks_file", dir + "/tasks.tsv"},
          {"sbatch_options", sbatch_lines}};
}

std::string task_table(const std::vector<TaskRow>& rows) {
  std::string out = "# sweep task table, format 1: task\trun_dir\trun_id\tattempt\n";
  for (const auto& r : rows) out += fmt::format("{}\t{}\t{}\t{}\n", r.task, r.run_dir, r.run_id, r.attempt);
  return out;
}

}  // namespace sweep::runner
