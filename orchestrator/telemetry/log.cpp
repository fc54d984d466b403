#include "telemetry/log.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "util/error.h"

namespace sweep::telemetry {
namespace {

/// The largest value a field may hold: 1e15 seconds, joules or MiB is beyond any run, and keeps every sum
/// of a campaign's values finite.
constexpr double kLargest = 1e15;
/// The most GPUs, and the most RAPL zones, one node's file may declare (a node has a few of each).
constexpr std::size_t kMaxDeclared = 1024;

/// One line being read, for messages that name file:line:column.
struct Line {
  const std::string& file;
  int number;
  std::string_view text;

  [[noreturn]] void fail(std::string_view at, const std::string& expected) const {
    const int column = at.data() >= text.data() && at.data() <= text.data() + text.size()
                           ? static_cast<int>(at.data() - text.data()) + 1
                           : 1;
    throw Error(ErrorKind::io, fmt::format("expected {}, got \"{}\"", expected, at), {file, number, column});
  }
};

/// The fields of a record, split at single spaces; `rest` is everything after the first `n` fields.
std::vector<std::string_view> fields(std::string_view text, std::size_t n = SIZE_MAX) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i <= text.size() && out.size() + 1 < n) {
    const std::size_t space = text.find(' ', i);
    if (space == std::string_view::npos) break;
    out.push_back(text.substr(i, space - i));
    i = space + 1;
  }
  out.push_back(text.substr(std::min(i, text.size())));
  return out;
}

double number(const Line& line, std::string_view word, const char* what) {
  double v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size() || !std::isfinite(v) || v < 0 ||
      v > kLargest)
    line.fail(word, fmt::format("{} (a number from 0 to 1e15)", what));
  return v;
}

std::optional<double> maybe(const Line& line, std::string_view word, const char* what) {
  if (word == "-") return std::nullopt;
  return number(line, word, what);
}

int index(const Line& line, std::string_view word, const char* what) {
  int v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size() || v < 0) line.fail(word, what);
  return v;
}

std::optional<std::uint64_t> throttle(const Line& line, std::string_view word) {
  if (word == "-") return std::nullopt;
  std::uint64_t v = 0;
  const auto digits = word.substr(std::min<std::size_t>(2, word.size()));
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
  if (!word.starts_with("0x") || digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    line.fail(word, "the clock-event reasons in hex (0x...) or -");
  return v;
}

void expect_count(const Line& line, const std::vector<std::string_view>& f, std::size_t n, const char* layout) {
  if (f.size() != n || std::any_of(f.begin(), f.end(), [](std::string_view w) { return w.empty(); }))
    line.fail(line.text, fmt::format("\"{}\"", layout));
}

/// Reading state: the log so far and the latest sample time, which may not go backwards, nor may a
/// cumulative counter (CPU seconds, a zone's or a GPU's joules).
struct Reader {
  Log log;
  int format = 0;  // of the first line: 1 or 2
  double last_t = 0;
  std::map<std::string, double, std::less<>> last_count;  // "proc", "rapl <zone>", "gpu <index>"
  std::set<int> gpus;                                      // declared, for lookups in logarithmic time:
  std::set<std::string, std::less<>> zones;                // a planted file cannot make reading quadratic

  void cumulative(const Line& line, std::string_view word, const std::string& key, double value) {
    auto [it, fresh] = last_count.emplace(key, value);
    if (!fresh && value < it->second)
      line.fail(word, fmt::format("a cumulative value no smaller than the previous sample's {}", it->second));
    it->second = value;
  }

  double time(const Line& line, std::string_view word) {
    const double t = number(line, word, "seconds since the first sample");
    if (t < last_t) line.fail(word, fmt::format("a time no earlier than the previous sample's {}", last_t));
    last_t = t;
    return t;
  }
};

void read_node(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 2, "node <name>");
  r.log.node = f[1];
}

void read_interval(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 2, "interval_ms <milliseconds>");
  r.log.interval_ms = index(line, f[1], "the interval in whole milliseconds");
}

void read_epoch(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 2, "epoch_s <seconds since the epoch>");
  r.log.epoch_s = number(line, f[1], "seconds since the epoch");
}

void read_source(const Line& line, Reader& r) {
  const auto f = fields(line.text, 4);
  if (f.size() < 3) line.fail(line.text, "\"source <proc|rapl|nvml> <ok|off|unavailable> [detail]\"");
  constexpr std::array<std::string_view, 3> kSources{"proc", "rapl", "nvml"};
  constexpr std::array<std::string_view, 3> kStates{"ok", "off", "unavailable"};
  if (std::find(kSources.begin(), kSources.end(), f[1]) == kSources.end()) line.fail(f[1], "proc, rapl or nvml");
  if (std::find(kStates.begin(), kStates.end(), f[2]) == kStates.end()) line.fail(f[2], "ok, off or unavailable");
  r.log.sources.push_back({std::string(f[1]), std::string(f[2]), f.size() > 3 ? std::string(f[3]) : ""});
}

void read_gpu_device(const Line& line, Reader& r) {
  const auto f = fields(line.text, 4);
  if (f.size() < 4 || f[2].empty()) line.fail(line.text, "\"gpu_device <index> <uuid> <name>\"");
  const int i = index(line, f[1], "a GPU index");
  if (r.gpus.size() >= kMaxDeclared) line.fail(line.text, fmt::format("at most {} GPUs in one file", kMaxDeclared));
  if (!r.gpus.insert(i).second) line.fail(f[1], "a GPU index not declared before");
  r.log.gpus.push_back({i, std::string(f[2]), std::string(f[3])});
}

void read_rapl_zone(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 4, "rapl_zone <zone> <package|dram|other> <name>");
  constexpr std::array<std::string_view, 3> kKinds{"package", "dram", "other"};
  if (std::find(kKinds.begin(), kKinds.end(), f[2]) == kKinds.end()) line.fail(f[2], "package, dram or other");
  if (r.zones.size() >= kMaxDeclared) line.fail(line.text, fmt::format("at most {} zones in one file", kMaxDeclared));
  if (!r.zones.emplace(f[1]).second) line.fail(f[1], "a zone not declared before");
  r.log.zones.push_back({std::string(f[1]), std::string(f[2]), std::string(f[3])});
}

void read_proc(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  if (r.format == 1) expect_count(line, f, 5, "proc <t> <cpu_s> <rss_mib> <nprocs>");
  else expect_count(line, f, 6, "proc <t> <cpu_s> <rss_mib> <nprocs> <peak_mib>");
  ProcSample s;
  s.t = r.time(line, f[1]);
  s.cpu_s = number(line, f[2], "CPU seconds");
  r.cumulative(line, f[2], "proc", s.cpu_s);
  s.rss_mib = number(line, f[3], "resident MiB");
  s.nprocs = index(line, f[4], "a process count");
  if (r.format >= 2) s.peak_mib = maybe(line, f[5], "peak MiB or -");
  r.log.proc.push_back(s);
}

void read_rapl(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 4, "rapl <t> <zone> <energy_j>");
  const double t = r.time(line, f[1]);
  if (!r.zones.contains(f[2])) line.fail(f[2], "a zone declared by an earlier rapl_zone record");
  const auto joules = maybe(line, f[3], "joules or -");
  if (joules) r.cumulative(line, f[3], "rapl " + std::string(f[2]), *joules);
  r.log.rapl.push_back({t, std::string(f[2]), joules});
}

void read_gpu(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 11,
               "gpu <t> <index> <energy_j> <power_w> <util_pct> <mem_util_pct> <mem_mib> <sm_mhz> <temp_c> <throttle>");
  GpuSample s;
  s.t = r.time(line, f[1]);
  s.index = index(line, f[2], "a GPU index");
  if (!r.gpus.contains(s.index)) line.fail(f[2], "a GPU declared by an earlier gpu_device record");
  s.energy_j = maybe(line, f[3], "joules or -");
  if (s.energy_j) r.cumulative(line, f[3], "gpu " + std::string(f[2]), *s.energy_j);
  s.power_w = maybe(line, f[4], "watts or -");
  s.util_pct = maybe(line, f[5], "a percentage or -");
  s.mem_util_pct = maybe(line, f[6], "a percentage or -");
  s.mem_mib = maybe(line, f[7], "MiB or -");
  s.sm_mhz = maybe(line, f[8], "MHz or -");
  s.temp_c = maybe(line, f[9], "degrees Celsius or -");
  s.throttle = throttle(line, f[10]);
  r.log.gpu.push_back(s);
}

void read_end(const Line& line, Reader& r) {
  const auto f = fields(line.text);
  expect_count(line, f, 2, "end <t>");
  r.log.end_t = r.time(line, f[1]);
}

using RecordReader = void (*)(const Line&, Reader&);
constexpr std::array<std::pair<std::string_view, RecordReader>, 10> kRecords{{
    {"node", read_node},
    {"interval_ms", read_interval},
    {"epoch_s", read_epoch},
    {"source", read_source},
    {"gpu_device", read_gpu_device},
    {"rapl_zone", read_rapl_zone},
    {"proc", read_proc},
    {"rapl", read_rapl},
    {"gpu", read_gpu},
    {"end", read_end},
}};

/// The first lines this sweep reads, by format.
constexpr std::array<std::pair<std::string_view, int>, 2> kFirstLines{{{"sweep-telemetry format=1", 1},
                                                                     {"sweep-telemetry format=2", 2}}};

}  // namespace

Log parse_telemetry(std::string_view text, const std::string& file) {
  Reader r;
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const Line line{file, ++number, text.substr(pos, eol - pos)};
    pos = eol + 1;
    if (number == 1) {
      const auto* first = std::find_if(kFirstLines.begin(), kFirstLines.end(), [&](const auto& x) { return x.first == line.text; });
      if (first == kFirstLines.end())
        line.fail(line.text, "\"sweep-telemetry format=2\" (this sweep reads formats 1 and 2)");
      r.format = first->second;
      continue;
    }
    if (line.text.empty()) continue;
    if (r.log.end_t) line.fail(line.text, "nothing after the end record");
    const auto name = line.text.substr(0, line.text.find(' '));
    const auto* row = std::find_if(kRecords.begin(), kRecords.end(), [&](const auto& x) { return x.first == name; });
    try {
      if (row == kRecords.end())
        line.fail(name, "a record: node, interval_ms, epoch_s, source, gpu_device, rapl_zone, proc, rapl, gpu or end");
      row->second(line, r);
    } catch (const Error&) {
      if (eol < text.size()) throw;
      r.log.torn_last_line = true;  // the sampler was killed while writing it
    }
  }
  if (number == 0) throw Error(ErrorKind::io, "expected \"sweep-telemetry format=2\", got an empty file", {file, 1, 1});
  return r.log;
}

}  // namespace sweep::telemetry
