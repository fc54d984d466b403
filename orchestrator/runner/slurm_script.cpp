#include "runner/slurm_script.h"

#include <fmt/core.h>

#include "spec/resources.h"
#include "util/error.h"

namespace sweep::runner {
namespace {

bool truthy(const std::string& v) { return v == "true" || v == "yes" || v == "1"; }
bool falsy(const std::string& v) { return v == "false" || v == "no" || v == "0" || v.empty(); }

/// Whether entry `i` gives way to a later entry of the same key (see sbatch_options).
bool overridden(const std::vector<std::pair<const spec::Resource*, std::string>>& rendered, std::size_t i,
                 spec::ResourceKey::Kind kind) {
  if (kind == spec::ResourceKey::Kind::list) return false;
  for (std::size_t j = i + 1; j < rendered.size(); ++j)
    if (rendered[j].first->key == rendered[i].first->key &&
        !(kind == spec::ResourceKey::Kind::optional && rendered[j].second.empty()))
      return true;
  return false;
}

}  // namespace

std::vector<std::string> sbatch_options(const std::vector<std::pair<const spec::Resource*, std::string>>& rendered) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < rendered.size(); ++i) {
    const auto& [resource, value] = rendered[i];
    const spec::ResourceKey* key = spec::find_resource_key(resource->key);
    if (!key) throw Error(ErrorKind::internal, "unknown resource " + resource->key);
    if (overridden(rendered, i, key->kind)) continue;
    switch (key->kind) {
      case spec::ResourceKey::Kind::flag:
        if (truthy(value)) out.emplace_back(key->option);
        else if (!falsy(value))
          fail_at(resource->where, fmt::format("resource \"{}\" must render to true or false, got \"{}\"", resource->key, value));
        break;
      case spec::ResourceKey::Kind::toggle:
        if (value.empty()) break;  // rendered empty: the cluster's default
        if (truthy(value)) out.emplace_back(key->option);
        else if (falsy(value)) out.push_back("--no-" + std::string(key->option.substr(2)));
        else
          fail_at(resource->where, fmt::format("resource \"{}\" must render to true or false, got \"{}\"", resource->key, value));
        break;
      case spec::ResourceKey::Kind::list:
        if (value.empty() || value[0] != '-')
          fail_at(resource->where, fmt::format("each \"resources.extra\" item must be an sbatch option starting with -, got \"{}\"", value));
        out.push_back(value);
        break;
      case spec::ResourceKey::Kind::count:
        if (!spec::is_count(value))
          fail_at(resource->where, fmt::format("resource \"{}\" must render to a positive integer, got \"{}\"", resource->key, value));
        out.push_back(fmt::format("{}={}", key->option, value));
        break;
      case spec::ResourceKey::Kind::optional:
        if (value.empty()) break;
        [[fallthrough]];
      case spec::ResourceKey::Kind::value:
        if (value.empty() || value.find_first_of(" \t\r\n") != std::string::npos)
          fail_at(resource->where, fmt::format("resource \"{}\" must render to one non-empty word, got \"{}\"", resource->key, value));
        out.push_back(fmt::format("{}={}", key->option, value));
        break;
    }
  }
  return out;
}

std::string array_range(std::size_t count, std::size_t max_running) {
  std::string out = count <= 1 ? "0" : fmt::format("0-{}", count - 1);
  if (max_running > 0) out += fmt::format("%{}", max_running);
  return out;
}

std::string array_job_name(const std::string& campaign, std::int64_t submission) {
  return fmt::format("sweep-{}-s{}", campaign, submission);
}

templating::Variables array_variables(const std::string& campaign, std::int64_t submission, const std::string& dir,
                                      std::size_t tasks, std::size_t max_running, const std::vector<std::string>& options) {
  std::string sbatch_lines;
  for (const auto& option : options)
    if (!option.empty()) sbatch_lines += "#SBATCH " + option + "\n";
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
