#include "sched/job.h"

#include <charconv>

#include "util/strings.h"

namespace sweep::sched {

std::optional<std::size_t> parse_count(std::string_view text) {
  std::size_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

namespace {

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<int> JobRecord::task_id() const { return to_int(array_tasks); }

std::map<std::pair<std::string, int>, const JobRecord*> index_by_task(const std::vector<JobRecord>& records) {
  std::map<std::pair<std::string, int>, const JobRecord*> out;
  for (const auto& r : records) {
    if (r.array_job_id.empty()) continue;
    if (const auto task = r.task_id()) out[{r.array_job_id, *task}] = &r;
    else
      for (int t : expand_task_ids(r.array_tasks)) out.try_emplace({r.array_job_id, t}, &r);
  }
  return out;
}

std::vector<int> expand_task_ids(std::string_view range) {
  range = range.substr(0, range.find('%'));
  std::vector<int> out;
  for (const std::string& part : split(range, ',')) {
    const std::size_t dash = part.find('-');
    const auto lo = to_int(std::string_view(part).substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : to_int(std::string_view(part).substr(dash + 1));
    // A range too large to be one of ours, in one part or all together (a list of many large parts
    // once took the fuzz target slurm_records past 2 GiB).
    if (!lo || !hi || *hi < *lo || out.size() + static_cast<std::size_t>(*hi - *lo) > 1'000'000) return {};
    for (int t = *lo; t <= *hi; ++t) out.push_back(t);
  }
  return out;
}

}  // namespace sweep::sched
