#include "slurm/job_record.h"

#include <charconv>

#include "util/strings.h"

namespace sweep::slurm {
namespace {

bool is_key(std::string_view word) {
  if (word.empty() || !((word[0] >= 'A' && word[0] <= 'Z') || (word[0] >= 'a' && word[0] <= 'z'))) return false;
  for (char c : word)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '/')) return false;
  return true;
}

std::optional<int> to_int(std::string_view s) {
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

/// "code:signal" as scontrol and sacct print it.
void read_exit(std::string_view text, JobRecord& r) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return;
  r.exit_code = to_int(text.substr(0, colon));
  r.signal = to_int(text.substr(colon + 1));
}

/// The state without qualifiers such as "CANCELLED by 0".
std::string first_word(std::string_view s) { return std::string(s.substr(0, s.find(' '))); }

/// A JobRecord from the fields of one jobcomp line.
JobRecord from_fields(const std::vector<std::pair<std::string, std::string>>& fields) {
  JobRecord r;
  for (const auto& [key, value] : fields) {
    if (key == "JobId") r.job_id = value;
    else if (key == "ArrayJobId") r.array_job_id = value;
    else if (key == "ArrayTaskId") r.array_tasks = value;
    else if (key == "Name") r.name = value;
    else if (key == "JobState") r.state = first_word(value);
    else if (key == "Reason") r.reason = value;
    else if (key == "ExitCode") read_exit(value, r);
    else if (key == "NodeList") r.node_list = value;
    else if (key == "Partition") r.partition = value;
    else if (key == "StartTime") r.start = value;
    else if (key == "EndTime") r.end = value;
    else if (key == "RunTime") r.elapsed_s = parse_duration(value);
  }
  if (r.array_tasks == "N/A") r.array_tasks.clear();
  return r;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) out.push_back(line);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> key_values(std::string_view line) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& word : split(line, ' ')) {
    if (word.empty()) continue;
    const std::size_t eq = word.find('=');
    if (eq != std::string::npos && is_key(std::string_view(word).substr(0, eq))) {
      out.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    } else if (!out.empty()) {
      out.back().second += " " + word;
    }
  }
  return out;
}

std::vector<JobRecord> parse_squeue(std::string_view text) {
  std::vector<JobRecord> out;
  for (std::string_view line : lines_of(text)) {
    std::vector<std::string> c = split(line, '|');
    if (c.size() < 13) continue;
    for (std::size_t i = 13; i < c.size(); ++i)  // a reason that holds '|' (never seen, but free text)
      if (!c[i].empty() || i + 1 < c.size()) c[12] += "|" + c[i];
    JobRecord r;
    r.job_id = c[0];
    if (c[2] != "N/A") {  // squeue names a plain job its own array job
      r.array_job_id = c[1];
      r.array_tasks = c[2];
    }
    r.name = c[3];
    r.state = first_word(c[4]);
    if (const auto status = to_int(c[5])) {
      r.exit_code = (*status >> 8) & 0xff;
      r.signal = *status & 0x7f;
    }
    r.restarts = to_int(c[6]);
    r.node_list = c[7];
    r.partition = c[8];
    r.start = c[9];
    r.end = c[10];
    r.elapsed_s = parse_duration(c[11]);
    r.reason = c[12];
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<JobRecord> parse_jobcomp(std::string_view text) {
  std::vector<JobRecord> out;
  for (std::string_view line : lines_of(text))
    if (line.substr(0, 6) == "JobId=") out.push_back(from_fields(key_values(line)));
  return out;
}

std::vector<JobRecord> parse_sacct(std::string_view text) {
  std::vector<JobRecord> out;
  for (std::string_view line : lines_of(text)) {
    const std::vector<std::string> c = split(line, '|');
    if (c.size() < 11) continue;
    JobRecord r;
    const std::size_t underscore = c[0].find('_');
    if (underscore != std::string::npos) {
      r.array_job_id = c[0].substr(0, underscore);
      r.array_tasks = c[0].substr(underscore + 1);
      if (r.array_tasks.size() > 1 && r.array_tasks.front() == '[' && r.array_tasks.back() == ']')
        r.array_tasks = r.array_tasks.substr(1, r.array_tasks.size() - 2);
    }
    r.job_id = c[1];
    r.name = c[2];
    r.state = first_word(c[3]);
    read_exit(c[4], r);
    r.node_list = c[5];
    r.start = c[6];
    r.end = c[7];
    if (const auto s = to_int(c[8])) r.elapsed_s = *s;
    r.reason = c[9];
    r.partition = c[10];
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<double> parse_duration(std::string_view text) {
  int days = 0;
  if (const std::size_t dash = text.find('-'); dash != std::string_view::npos) {
    const auto d = to_int(text.substr(0, dash));
    if (!d) return std::nullopt;
    days = *d;
    text = text.substr(dash + 1);
  }
  const std::vector<std::string> parts = split(text, ':');
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  double total = 0;
  for (const std::string& p : parts) {
    const auto v = to_int(p);
    if (!v || *v < 0) return std::nullopt;
    total = total * 60 + *v;
  }
  return total + days * 86400.0;
}


}  // namespace sweep::slurm
