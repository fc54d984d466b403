#include "spec/time_limit.h"

#include <fmt/core.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "util/strings.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::string_view, 2> kUnlimited{"UNLIMITED", "INFINITE"};

std::optional<std::int64_t> digits(std::string_view s) {
  std::int64_t v = 0;
  if (s.empty() || s.size() > 9) return std::nullopt;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

bool is_unlimited(std::string_view text) {
  for (std::string_view word : kUnlimited) {
    if (text.size() != word.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < word.size(); ++i)
      same = same && std::toupper(static_cast<unsigned char>(text[i])) == word[i];
    if (same) return true;
  }
  return false;
}

TimeLimit refused(std::string problem) { return TimeLimit{std::nullopt, std::move(problem)}; }

TimeLimit malformed(std::string_view text) {
  return refused(fmt::format(" must be a time limit ({}), got \"{}\"", kTimeFormats, text));
}

/// One field and what it counts, from the left of the clock part.
struct Field {
  std::int64_t value;
  std::int64_t unit_s;
};

/// The clock part (after "days-", if any) as fields with their units: with days the first field is
/// hours; without, minutes first unless all three fields are given.
std::optional<std::vector<Field>> clock_fields(std::string_view clock, bool has_days) {
  const std::vector<std::string> parts = split(clock, ':');
  if (parts.size() > 3) return std::nullopt;
  const bool hours_first = has_days || parts.size() == 3;
  constexpr std::array<std::int64_t, 3> kHoursFirst{3600, 60, 1}, kMinutesFirst{60, 1, 0};
  std::vector<Field> out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto n = digits(parts[i]);
    if (!n) return std::nullopt;
    out.push_back({*n, (hours_first ? kHoursFirst : kMinutesFirst)[i]});
  }
  return out;
}

/// The range rule of the fields after the leading one (and of hours after days); "" when kept.
std::string range_problem(const std::vector<Field>& fields, bool has_days, std::string_view text) {
  for (std::size_t i = 1; i < fields.size(); ++i)
    if (fields[i].value >= 60)
      return fmt::format(": {} must be < 60 in \"{}\"", fields[i].unit_s == 60 ? "minutes" : "seconds", text);
  if (has_days && fields[0].value >= 24) return fmt::format(": hours must be < 24 after days in \"{}\"", text);
  return "";
}

}  // namespace

TimeLimit parse_time_limit(std::string_view text) {
  if (is_unlimited(text)) return TimeLimit{};
  const std::size_t dash = text.find('-');
  const bool has_days = dash != std::string_view::npos;
  const std::optional<std::int64_t> days = has_days ? digits(text.substr(0, dash)) : std::optional<std::int64_t>(0);
  if (!days) return malformed(text);
  const auto fields = clock_fields(has_days ? text.substr(dash + 1) : text, has_days);
  if (!fields) return malformed(text);
  if (std::string p = range_problem(*fields, has_days, text); !p.empty()) return refused(std::move(p));
  double seconds = static_cast<double>(*days) * 86400;
  for (const Field& f : *fields) seconds += static_cast<double>(f.value * f.unit_s);
  if (!(seconds > 0)) return refused(fmt::format(" must be a positive time limit (use UNLIMITED for none), got \"{}\"", text));
  return TimeLimit{seconds, ""};
}

std::string time_limit_error(std::string_view name, const TimeLimit& limit) {
  return fmt::format("\"{}\"{}", name, limit.problem);
}

std::string slurm_time_text(double seconds) {
  const auto s = static_cast<long long>(std::ceil(seconds));
  const long long days = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60, sec = s % 60;
  if (days > 0) return fmt::format("{}-{:02}:{:02}:{:02}", days, h, m, sec);
  return fmt::format("{:02}:{:02}:{:02}", h, m, sec);
}

}  // namespace sweep::spec
