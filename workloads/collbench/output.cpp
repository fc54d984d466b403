#include "collbench/output.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace sweep::collbench {
namespace {

std::string time_text(double us) { return us < 1e4 ? fmt::format("{:7.2f}", us) : fmt::format("{:7.0f}", us); }

std::string wrong_text(const std::optional<std::uint64_t>& wrong) { return wrong ? std::to_string(*wrong) : "N/A"; }

std::string side(const Options& o, int ranks, std::uint64_t bytes, const Timing& t) {
  const double algbw = algbw_gbps(bytes, headline_us(o, t));
  return fmt::format("  {}  {:6.2f}  {:6.2f}  {:>6}", time_text(headline_us(o, t)), algbw,
                     algbw * bus_factor(o.op, ranks), wrong_text(t.wrong));
}

// One metric line. Values print with full precision; tags say which row they belong to.
std::string line(std::string_view metric, double value, std::string_view unit, std::string_view better,
                 std::size_t index, const Options& o, std::uint64_t bytes) {
  std::string text = fmt::format(R"({{"v": 1, "metric": "{}", "value": {}, "index": {})", metric, value, index);
  if (!unit.empty()) text += fmt::format(R"(, "unit": "{}")", unit);
  if (!better.empty()) text += fmt::format(R"(, "better": "{}")", better);
  text += fmt::format(R"(, "tags": {{"op": "{}", "dtype": "{}", "size_bytes": {}}}}})", comm::name_of(o.op),
                      comm::name_of(o.dtype), bytes);
  return text + "\n";
}

std::string timing_lines(const Options& o, int ranks, std::size_t index, std::uint64_t bytes, const Timing& t,
                         std::string_view suffix) {
  const double algbw = algbw_gbps(bytes, headline_us(o, t));
  const auto name = [&](std::string_view base) { return std::string(base) + std::string(suffix); };
  std::string out = line(name("time_us"), headline_us(o, t), "us", "lower", index, o, bytes);
  out += line(name("time_us_min"), t.min_us, "us", "lower", index, o, bytes);
  out += line(name("time_us_max"), t.max_us, "us", "lower", index, o, bytes);
  out += line(name("algbw"), algbw, "GB/s", "higher", index, o, bytes);
  out += line(name("busbw"), algbw * bus_factor(o.op, ranks), "GB/s", "higher", index, o, bytes);
  if (t.wrong) out += line(name("wrong"), static_cast<double>(*t.wrong), "elements", "lower", index, o, bytes);
  return out;
}

}  // namespace

double headline_us(const Options& o, const Timing& t) {
  const std::array<double, 3> by_choice{t.min_us, t.avg_us, t.max_us};
  return by_choice[static_cast<std::size_t>(o.headline)];
}

double algbw_gbps(std::uint64_t bytes, double time_us) {
  return time_us > 0 ? static_cast<double>(bytes) / (time_us * 1e-6) / 1e9 : 0.0;
}

std::string header(const Options& o, const RunInfo& info) {
  std::string h = fmt::format("# collbench {} (output format {})\n", info.collbench_version, kOutputFormat);
  h += fmt::format("# op {} | backend {} ({}) | dtype {} | redop {} | ranks {} (from {}) | device {}\n",
                   comm::name_of(o.op), comm::name_of(o.backend), info.library, comm::name_of(o.dtype),
                   reduces(o.op) ? comm::name_of(o.redop) : "none", info.ranks, info.rank_source, info.device);
  h += fmt::format("# sizes {} .. {} x{} | warmup {} | iters {} | check {} | in-place {} | timeout {} s\n",
                   o.min_bytes, o.max_bytes, o.factor, o.warmup, o.iters,
                   !o.check ? "off" : (info.checkable ? "on" : "N/A (this dtype cannot hold the result exactly)"),
                   o.inplace ? "yes" : "no", static_cast<double>(o.timeout.count()) / 1000.0);
  h += fmt::format("# time: per iteration, mean of the timed iterations ({}); algbw and busbw use the {} over ranks\n",
                   info.clock, name_of(o.headline));
  for (std::size_t r = 0; r < info.hosts.size(); ++r) h += fmt::format("#  Rank {:3} on {}\n", r, info.hosts[r]);
  h += "#\n";
  const std::string group = "     time   algbw   busbw  #wrong";
  const std::string units = "     (us)  (GB/s)  (GB/s)        ";
  h += fmt::format("# {:>62}{}\n", "out-of-place", o.inplace ? "                          in-place" : "");
  h += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}{}{}\n", "size", "count", "type", "redop", "root", group,
                   o.inplace ? group : "");
  h += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}{}{}\n", "(B)", "(elements)", "", "", "", units,
                   o.inplace ? units : "");
  return h;
}

std::string table_row(const Options& o, int ranks, const Row& row) {
  const bool broadcast = o.op == comm::Collective::broadcast;
  std::string text = fmt::format("  {:>10}  {:>12}  {:>8}  {:>6}  {:>6}", row.shape.bytes, row.shape.count,
                                 comm::table_name_of(o.dtype), reduces(o.op) ? comm::name_of(o.redop) : "none",
                                 broadcast ? o.root : -1);
  text += side(o, ranks, row.shape.bytes, row.out_of_place);
  if (row.in_place) text += side(o, ranks, row.shape.bytes, *row.in_place);
  return text + "\n";
}

std::string metric_lines(const Options& o, int ranks, std::size_t index, const Row& row) {
  const std::uint64_t bytes = row.shape.bytes;
  std::string out = line("size_bytes", static_cast<double>(bytes), "B", "", index, o, bytes);
  out += line("count", static_cast<double>(row.shape.count), "elements", "", index, o, bytes);
  out += timing_lines(o, ranks, index, bytes, row.out_of_place, "");
  if (row.in_place) out += timing_lines(o, ranks, index, bytes, *row.in_place, "_inplace");
  return out;
}

std::string summary(const Options& o, int ranks, const std::vector<Row>& rows) {
  double sum = 0, peak = 0;
  std::uint64_t peak_bytes = 0, measured = 0, wrong = 0;
  bool checked = false;
  const auto add = [&](const Row& row, const Timing& t) {
    const double busbw = algbw_gbps(row.shape.bytes, headline_us(o, t)) * bus_factor(o.op, ranks);
    sum += busbw;
    ++measured;
    if (t.wrong) checked = true, wrong += *t.wrong;
    if (&t == &row.out_of_place && busbw > peak) peak = busbw, peak_bytes = row.shape.bytes;
  };
  for (const Row& row : rows) {
    add(row, row.out_of_place);
    if (row.in_place) add(row, *row.in_place);
  }
  const double avg = measured ? sum / static_cast<double>(measured) : 0;
  std::string out = fmt::format("# Out of bounds values : {} {}\n", checked ? std::to_string(wrong) : "N/A",
                                !checked ? "(not checked)" : (wrong == 0 ? "OK" : "FAILED"));
  out += fmt::format("# Avg bus bandwidth    : {:.6g}\n#\n", avg);
  const std::uint64_t last = rows.empty() ? 0 : rows.back().shape.bytes;
  out += line("busbw_avg", avg, "GB/s", "higher", 0, o, last);
  out += line("busbw_peak", peak, "GB/s", "higher", 0, o, peak_bytes);
  out += line("busbw_peak_size_bytes", static_cast<double>(peak_bytes), "B", "", 0, o, peak_bytes);
  if (checked) out += line("wrong_total", static_cast<double>(wrong), "elements", "lower", 0, o, last);
  return out;
}

}  // namespace sweep::collbench
