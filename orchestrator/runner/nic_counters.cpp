#include "runner/nic_counters.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include "util/error.h"
#include "util/strings.h"

namespace sweep::runner {
namespace {

constexpr int kLoopbackType = 772;  // ARPHRD_LOOPBACK
constexpr int kIpoibType = 32;      // ARPHRD_INFINIBAND

/// One line being read, for messages that name file:line:column.
struct Line {
  const std::string& file;
  int number;
  std::string_view text;

  [[noreturn]] void fail(std::string_view at, const std::string& expected) const {
    const int column = static_cast<int>(at.data() - text.data()) + 1;
    fail_at({file, number, column}, fmt::format("expected {}, got \"{}\"", expected, at));
  }
};

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::uint64_t counter(const Line& line, std::string_view word, std::uint64_t factor) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || end != word.data() + word.size()) line.fail(word, "a counter (a non-negative integer)");
  return v * factor;
}

double seconds(const Line& line, std::string_view word) {
  std::string text(word);
  std::replace(text.begin(), text.end(), ',', '.');  // $EPOCHREALTIME follows LC_NUMERIC
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0) line.fail(word, "seconds since the epoch");
  return v;
}

void read_net(const Line& line, const std::vector<std::string_view>& w, NicSnapshot& s) {
  if (w.size() != 6) line.fail(line.text, "\"net <interface> <type> <operstate> <rx_bytes> <tx_bytes>\"");
  NicCounter c{std::string(w[1]), false, static_cast<int>(counter(line, w[2], 1)), std::string(w[3]),
               counter(line, w[4], 1), counter(line, w[5], 1)};
  s.counters.push_back(std::move(c));
}

void read_ib(const Line& line, const std::vector<std::string_view>& w, NicSnapshot& s) {
  if (w.size() != 4) line.fail(line.text, "\"ib <device>/<port> <port_rcv_data> <port_xmit_data>\"");
  s.counters.push_back({std::string(w[1]), true, 0, "", counter(line, w[2], 4), counter(line, w[3], 4)});
}

using LineReader = void (*)(const Line&, const std::vector<std::string_view>&, NicSnapshot&);
constexpr std::array<std::pair<std::string_view, LineReader>, 2> kCounterLines{{{"net", read_net}, {"ib", read_ib}}};

void read_field(const Line& line, std::string_view key, std::string_view value, NicSnapshot& s) {
  if (key == "format") {
    if (value != "1") line.fail(value, "format 1");
  } else if (key == "moment") {
    if (value != "start" && value != "end") line.fail(value, "start or end");
    s.moment = value;
  } else if (key == "node") {
    s.node = value;
  } else if (key == "time_s") {
    s.time_s = seconds(line, value);
  } else if (key == "interfaces") {
    for (std::string_view w : words(value)) s.interfaces.emplace_back(w);
  } else {
    line.fail(key, "one of format, moment, node, time_s, interfaces, net, ib");
  }
}

}  // namespace

NicSnapshot parse_nic_snapshot(std::string_view text, const std::string& file) {
  NicSnapshot s;
  int number = 0;
  bool versioned = false;
  for (std::string_view rest = text; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    const Line line{file, ++number, rest.substr(0, nl)};
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (line.text.empty()) continue;
    if (const std::size_t eq = line.text.find('='); eq != std::string_view::npos && line.text.find(' ') > eq) {
      read_field(line, line.text.substr(0, eq), line.text.substr(eq + 1), s);
      versioned = versioned || line.text.substr(0, eq) == "format";
      continue;
    }
    const auto w = words(line.text);
    if (w.empty()) continue;
    const auto* row = std::find_if(kCounterLines.begin(), kCounterLines.end(), [&](const auto& r) { return r.first == w[0]; });
    if (row == kCounterLines.end()) line.fail(w[0], "\"net\", \"ib\" or a key=value line");
    row->second(line, w, s);
  }
  if (!versioned || s.moment.empty())
    fail_at({file, 1, 1}, "expected a network-counter snapshot starting with format=1 and naming its moment");
  return s;
}

bool carries_traffic(const NicCounter& c, const std::vector<std::string>& interfaces) {
  if (!interfaces.empty()) return std::find(interfaces.begin(), interfaces.end(), c.name) != interfaces.end();
  if (c.infiniband) return true;
  return c.operstate == "up" && c.type != kLoopbackType && c.type != kIpoibType;
}

NicMeasure nic_measure(const std::vector<NicSnapshot>& snapshots) {
  std::map<std::string, std::pair<const NicSnapshot*, const NicSnapshot*>> nodes;  // start, end
  for (const NicSnapshot& s : snapshots) (s.moment == "start" ? nodes[s.node].first : nodes[s.node].second) = &s;
  NicMeasure m;
  std::optional<double> first_start, last_start, first_end, last_end;
  for (const auto& [node, pair] : nodes) {
    const auto [start, end] = pair;
    if (!start || !end)
      throw Error(ErrorKind::io, fmt::format("node {} has no {} network-counter snapshot", node, start ? "end" : "start"));
    first_start = std::min(first_start.value_or(start->time_s), start->time_s);
    last_start = std::max(last_start.value_or(start->time_s), start->time_s);
    first_end = std::min(first_end.value_or(end->time_s), end->time_s);
    last_end = std::max(last_end.value_or(end->time_s), end->time_s);
    for (const NicCounter& c : start->counters) {
      if (!carries_traffic(c, start->interfaces)) continue;
      const auto after = std::find_if(end->counters.begin(), end->counters.end(), [&](const NicCounter& e) { return e.name == c.name; });
      if (after == end->counters.end()) continue;
      if (after->tx_bytes < c.tx_bytes)
        throw Error(ErrorKind::io, fmt::format("node {}: the tx counter of {} went back from {} to {}", node, c.name,
                                                         c.tx_bytes, after->tx_bytes));
      m.volume_bytes += static_cast<double>(after->tx_bytes - c.tx_bytes);
    }
  }
  if (!first_start) return m;
  m.sampled_span_s = std::max(0.0, *last_end - *first_start);
  if (*first_end < *last_start - kClockSkewS)
    throw Error(ErrorKind::io, fmt::format("the samples do not bracket one workload: a node's end sample ({:.6f}) is "
                                           "earlier than another's start sample ({:.6f})",
                                           *first_end, *last_start));
  if (*first_end <= *last_start) {  // a short workload, and nodes' clocks that disagree by about as much
    m.span_s = m.sampled_span_s;
    m.note = fmt::format("a node's end sample ({:.6f}) is not later than another's start sample ({:.6f}): the "
                         "nodes' clocks disagree by about the workload's time, so the throughput is over the whole "
                         "sampled span", *first_end, *last_start);
  } else {
    m.span_s = *first_end - *last_start;
  }
  m.throughput_bps = m.span_s > 0 ? m.volume_bytes * 8 / m.span_s : 0;
  return m;
}

}  // namespace sweep::runner
