#include "telemetry/proc_stat.h"

#include <charconv>
#include <vector>

namespace sweep::telemetry {
namespace {

template <typename T>
bool to_number(std::string_view s, T& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::vector<std::string_view> split_spaces(std::string_view s) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') ++i;
    if (i > start) fields.push_back(s.substr(start, i - start));
  }
  return fields;
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string_view::npos || open < 2 || close == std::string_view::npos || close < open) {
    return std::nullopt;
  }
  ProcStat st;
  if (!to_number(text.substr(0, open - 1), st.pid) || text[open - 1] != ' ') {
    return std::nullopt;
  }
  st.comm = std::string(text.substr(open + 1, close - open - 1));
  // Fields after the comm, numbered as proc(5) numbers them: 3 state, 4 ppid, 14 utime, 15 stime,
  // 16 cutime, 17 cstime (signed in proc(5): one that does not read as a count is 0), 22 starttime.
  const auto rest = split_spaces(text.substr(close + 1));
  const auto field = [&](std::size_t number) { return rest[number - 3]; };
  if (rest.size() < 22 - 2 || field(3).size() != 1) return std::nullopt;
  st.state = field(3)[0];
  if (!to_number(field(4), st.ppid) || !to_number(field(14), st.utime) || !to_number(field(15), st.stime) ||
      !to_number(field(22), st.starttime)) {
    return std::nullopt;
  }
  if (!to_number(field(16), st.cutime)) st.cutime = 0;
  if (!to_number(field(17), st.cstime)) st.cstime = 0;
  return st;
}

namespace {

/// The KiB of the first /proc/<pid>/status line that starts with `key` ("VmRSS:"), nullopt without it.
std::optional<std::uint64_t> status_kib(std::string_view status, std::string_view key) {
  std::size_t at = 0;
  while (at < status.size()) {
    const auto eol = status.find('\n', at);
    const auto line = status.substr(at, eol == std::string_view::npos ? std::string_view::npos : eol - at);
    if (line.substr(0, key.size()) == key) {
      const auto fields = split_spaces(line.substr(key.size()));
      std::uint64_t kib = 0;
      if (fields.empty() || !to_number(fields[0], kib)) return std::nullopt;
      return kib;
    }
    if (eol == std::string_view::npos) break;
    at = eol + 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_vm_rss_kib(std::string_view status) { return status_kib(status, "VmRSS:"); }

std::optional<std::uint64_t> parse_vm_hwm_kib(std::string_view status) { return status_kib(status, "VmHWM:"); }

bool environ_has(std::string_view env_block, std::string_view marker) {
  std::size_t at = 0;
  while (at < env_block.size()) {
    const auto end = env_block.find('\0', at);
    const auto entry = env_block.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (entry == marker) return true;
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return false;
}

std::set<int> tree_under(int root, const std::map<int, int>& parent_of) {
  std::map<int, std::vector<int>> children;
  for (const auto& [pid, ppid] : parent_of) children[ppid].push_back(pid);
  std::set<int> tree;
  std::vector<int> todo{root};
  while (!todo.empty()) {
    const int pid = todo.back();
    todo.pop_back();
    if (!tree.insert(pid).second) continue;
    if (const auto it = children.find(pid); it != children.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  return tree;
}

}  // namespace sweep::telemetry
