#include "slurm/usage.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string>

#include "slurm/job_record.h"
#include "util/strings.h"

namespace sweep::slurm {

namespace {

/// A finite non-negative number that fills `text` ("1.5"); nullopt otherwise.
std::optional<double> number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    return std::nullopt;
  return v;
}

std::optional<int> whole(std::string_view text) {
  const auto v = number(text);
  if (!v || *v != std::floor(*v) || *v > 1e9) return std::nullopt;
  return static_cast<int>(*v);
}

/// The value of `key` in a TRES list "cpu=2,mem=1G,gres/gpu=2"; "" when absent.
std::string tres_value(std::string_view list, std::string_view key) {
  for (const std::string& item : split(list, ','))
    if (item.size() > key.size() && item.compare(0, key.size(), key) == 0 && item[key.size()] == '=')
      return item.substr(key.size() + 1);
  return "";
}

/// Adds `v` to `sum` (which stays nullopt while nothing was added).
void add(std::optional<double>& sum, std::optional<double> v) {
  if (v) sum = sum.value_or(0) + *v;
}

struct Steps {
  std::optional<double> cpu_time_s, energy_j, tres_energy_j, max_rss_mib;
};

/// The allocation's fields (columns of kSacctUsageFormat) into `u`.
void read_allocation(const std::vector<std::string>& c, sched::JobUsage& u) {
  u.job_id = c[0];
  if (const auto us = c[0].find('_'); us != std::string::npos) {
    u.array_job_id = c[0].substr(0, us);
    u.task = whole(std::string_view(c[0]).substr(us + 1));
  }
  if (const auto e = number(c[1])) u.elapsed_s = *e;
  u.cpu_time_s = cpu_duration_s(c[2]);
  if (const auto e = number(c[4]); e && *e > 0) u.energy_j = *e;
  u.req_mem = c[6];
  u.alloc_cpus = whole(c[7]);
  u.alloc_gpus = whole(tres_value(c[8], "gres/gpu"));
  u.timelimit = c[9];
}

void read_step(const std::vector<std::string>& c, Steps& s) {
  add(s.cpu_time_s, cpu_duration_s(c[2]));
  if (const auto rss = slurm_size_mib(c[3])) s.max_rss_mib = std::max(s.max_rss_mib.value_or(0), *rss);
  add(s.energy_j, number(c[4]));
  add(s.tres_energy_j, number(tres_value(c[5], "energy")));
}

}  // namespace

std::optional<double> slurm_size_mib(std::string_view text) {
  static constexpr std::string_view kUnits = "KMGTP";
  if (text.empty()) return std::nullopt;
  const std::size_t unit = kUnits.find(text.back());
  if (unit == std::string_view::npos) {
    const auto bytes = number(text);
    return bytes ? std::optional<double>(*bytes / (1024.0 * 1024.0)) : std::nullopt;
  }
  const auto v = number(text.substr(0, text.size() - 1));
  if (!v) return std::nullopt;
  return *v * std::pow(1024.0, static_cast<double>(unit)) / 1024.0;  // K is 1/1024 MiB
}

std::optional<double> cpu_duration_s(std::string_view text) {
  double fraction = 0;
  if (const std::size_t dot = text.find('.'); dot != std::string_view::npos) {
    const auto f = number(text.substr(dot));
    if (!f && text.substr(dot) != ".") return std::nullopt;
    fraction = f.value_or(0);
    text = text.substr(0, dot);
  }
  const auto whole_s = parse_duration(text);
  if (!whole_s) return std::nullopt;
  return *whole_s + fraction;
}

std::vector<sched::JobUsage> parse_sacct_usage(std::string_view text) {
  std::vector<sched::JobUsage> out;
  std::map<std::string, Steps> steps;
  for (const std::string& line : split(text, '\n')) {
    const std::vector<std::string> c = split(trim(line), '|');
    if (c.size() != 10 || c[0].empty() || c[0].find('[') != std::string::npos) continue;
    const std::size_t dot = c[0].find('.');
    const std::string alloc = c[0].substr(0, dot);
    if (dot != std::string::npos) {
      read_step(c, steps[alloc]);
      continue;
    }
    read_allocation(c, out.emplace_back());
  }
  for (auto& u : out) {
    const Steps& s = steps[u.job_id];
    if (!u.cpu_time_s) u.cpu_time_s = s.cpu_time_s;
    u.max_rss_mib = s.max_rss_mib;
    if (!u.energy_j && s.energy_j.value_or(0) > 0) u.energy_j = s.energy_j;
    if (!u.energy_j && s.tres_energy_j.value_or(0) > 0) u.energy_j = s.tres_energy_j;
  }
  return out;
}

}  // namespace sweep::slurm
