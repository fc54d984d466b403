#include "report/units.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "util/error.h"
#include "util/strings.h"

namespace sweep::report {
namespace {

/// A unit and its size in its family's base unit: bytes (a bit is 1/8), seconds, tokens, samples, joules
/// (a watt-hour is 3600 J), watts.
struct Unit {
  std::string_view name;
  std::string_view family;
  double factor;
};

constexpr std::string_view kTime = "time";

constexpr std::array<Unit, 38> kUnits{{
    {"B", "bytes", 1},
    {"kB", "bytes", 1e3},
    {"MB", "bytes", 1e6},
    {"GB", "bytes", 1e9},
    {"TB", "bytes", 1e12},
    {"KiB", "bytes", 1024.0},
    {"MiB", "bytes", 1048576.0},
    {"GiB", "bytes", 1073741824.0},
    {"TiB", "bytes", 1099511627776.0},
    {"b", "bytes", 0.125},
    {"kb", "bytes", 125},
    {"Mb", "bytes", 1.25e5},
    {"Gb", "bytes", 1.25e8},
    {"Tb", "bytes", 1.25e11},
    {"ns", kTime, 1e-9},
    {"us", kTime, 1e-6},
    {"µs", kTime, 1e-6},
    {"ms", kTime, 1e-3},
    {"s", kTime, 1},
    {"min", kTime, 60},
    {"h", kTime, 3600},
    {"tokens", "tokens", 1},
    {"ktokens", "tokens", 1e3},
    {"Mtokens", "tokens", 1e6},
    {"Gtokens", "tokens", 1e9},
    {"samples", "samples", 1},
    {"ksamples", "samples", 1e3},
    {"Msamples", "samples", 1e6},
    {"elements", "elements", 1},
    {"%", "percent", 1},
    {"J", "energy", 1},
    {"kJ", "energy", 1e3},
    {"MJ", "energy", 1e6},
    {"Wh", "energy", 3600},
    {"kWh", "energy", 3.6e6},
    {"W", "power", 1},
    {"kW", "power", 1e3},
    {"mW", "power", 1e-3},
}};

const Unit* find_unit(std::string_view name) {
  for (const Unit& u : kUnits)
    if (u.name == name) return &u;
  return nullptr;
}

/// A unit read: its family ("bytes", or "bytes/time" for a rate) and its size in the family's base.
struct Resolved {
  std::string family;
  double factor = 1;
  std::string_view quantity;  // the quantity's family ("bytes" for GB/s)
  bool rate = false;
};

/// "GB" or "GB/s": a unit of the table, or one over a time unit; nullopt otherwise.
std::optional<Resolved> resolve(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    const Unit* u = find_unit(text);
    if (!u) return std::nullopt;
    return Resolved{std::string(u->family), u->factor, u->family, false};
  }
  const Unit* q = find_unit(text.substr(0, slash));
  const Unit* t = find_unit(text.substr(slash + 1));
  if (!q || !t || q->family == kTime || t->family != kTime) return std::nullopt;
  return Resolved{std::string(q->family) + "/" + std::string(kTime), q->factor / t->factor, q->family, true};
}

std::vector<std::string> names_of(std::string_view family, std::string_view suffix) {
  std::vector<std::string> out;
  for (const Unit& u : kUnits)
    if (u.family == family) out.push_back(std::string(u.name) + std::string(suffix));
  return out;
}

std::string every_unit() {
  std::vector<std::string> families;
  std::vector<std::string_view> seen;
  for (const Unit& u : kUnits) {
    if (std::find(seen.begin(), seen.end(), u.family) != seen.end()) continue;
    seen.push_back(u.family);
    families.push_back(fmt::format("{}: {}", u.family, join(names_of(u.family, ""), ", ")));
  }
  return join(families, "; ") + "; rates: any of these but a time over a time, e.g. GB/s, Gb/s, ktokens/s, MB/ms";
}

std::vector<std::string> all_names() {
  std::vector<std::string> out;
  for (const Unit& u : kUnits) out.emplace_back(u.name);
  return out;
}

Resolved resolve_or_fail(std::string_view unit) {
  if (auto r = resolve(unit)) return *r;
  throw Error(ErrorKind::usage, fmt::format("unknown unit \"{}\"{} (valid units: {})", unit,
                                            did_you_mean(std::string(unit), all_names()), every_unit()));
}

}  // namespace

std::string compatible_units(std::string_view unit) {
  const auto r = resolve(unit);
  if (!r) return every_unit();
  if (!r->rate) return join(names_of(r->quantity, ""), ", ");
  return join(names_of(r->quantity, "/s"), ", ") + fmt::format(" (or over {})", join(names_of(kTime, ""), ", "));
}

double conversion_factor(std::string_view from, std::string_view to) {
  if (from == to) return 1;
  const Resolved a = resolve_or_fail(from);
  const Resolved b = resolve_or_fail(to);
  if (a.family != b.family)
    throw Error(ErrorKind::usage, fmt::format("cannot convert {} ({}) to {} ({}); {} converts to {}", from, a.family, to,
                                              b.family, from, compatible_units(from)));
  return a.factor / b.factor;
}

MetricStats scaled_stats(const MetricStats& m, double factor, std::string unit) {
  MetricStats out = m;
  out.unit = std::move(unit);
  const auto scale = [factor](stats::Summary& s) {
    for (double* v : {&s.mean, &s.sd, &s.min, &s.max, &s.median, &s.q1, &s.q3, &s.ci_low, &s.ci_high}) *v *= factor;
  };
  scale(out.summary);
  for (double& v : out.values) v *= factor;
  for (auto& [index, s] : out.by_index) scale(s);
  return out;
}

}  // namespace sweep::report
