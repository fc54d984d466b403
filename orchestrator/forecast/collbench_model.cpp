#include "forecast/collbench_model.h"

#include <array>
#include <charconv>
#include <string_view>
#include <utility>

namespace sweep::forecast {
namespace {

/// "64M", "1GiB", "4096": bytes with an optional binary suffix (collbench's --min-bytes notation).
std::optional<double> bytes_of(std::string_view text) {
  if (text.ends_with("iB")) text.remove_suffix(2);
  else if (text.size() > 1 && text.ends_with('B')) text.remove_suffix(1);
  constexpr std::array<std::pair<char, double>, 4> kSuffixes{{{'K', 1024.0}, {'M', 1048576.0}, {'G', 1073741824.0}, {'T', 1099511627776.0}}};
  double scale = 1;
  for (const auto& [suffix, factor] : kSuffixes)
    if (!text.empty() && text.back() == suffix) {
      scale = factor;
      text.remove_suffix(1);
    }
  double n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) return std::nullopt;
  return n * scale;
}

/// The option's value read by `read`, `fallback` when absent; nullopt when unknown before the run or unreadable.
std::optional<double> option(const spec::BundledValues& args, std::string_view name, double fallback,
                             std::optional<double> (*read)(std::string_view)) {
  const auto it = args.find(name);
  if (it == args.end()) return fallback;
  if (!it->second) return std::nullopt;
  return read(*it->second);
}

std::optional<double> number_of(std::string_view text) {
  double n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) return std::nullopt;
  return n;
}

}  // namespace

std::optional<double> collbench_seconds(const spec::BundledValues& args, int ranks, const model::Link& link) {
  if (const auto op = args.find("op"); op != args.end() && op->second != "allreduce") return std::nullopt;
  if (args.contains("params") || ranks < 2 || !(link.bandwidth > 0)) return std::nullopt;
  const auto min = option(args, "min-bytes", kCollbenchDefaultBytes, bytes_of);
  const auto max = option(args, "max-bytes", min.value_or(0), bytes_of);
  const auto factor = option(args, "factor", 2, number_of);
  const auto warmup = option(args, "warmup", 5, number_of);
  const auto iters = option(args, "iters", 20, number_of);
  if (!min || !max || !factor || !warmup || !iters || *min > *max || (*min < *max && (*factor < 2 || *min <= 0)))
    return std::nullopt;
  const auto inplace = args.find("inplace");
  const double variants = inplace != args.end() && inplace->second == "true" ? 2 : 1;
  double seconds = 0;
  for (double bytes = *min; bytes <= *max; bytes *= *factor) {
    seconds += (*warmup + *iters) * variants * model::allreduce_seconds(bytes, ranks, link);
    if (*min == *max) break;
  }
  return seconds;
}

}  // namespace sweep::forecast

namespace sweep::forecast {

std::optional<model::Link> named_link(const std::vector<model::Interconnect>& table, const std::string& name) {
  const model::Interconnect* i = model::find_interconnect(table, name);
  if (!i) return std::nullopt;
  return model::Link{i->bandwidth * 1e9, i->latency_us.value_or(0) * 1e-6, 1};
}

}  // namespace sweep::forecast
