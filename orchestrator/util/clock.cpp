#include "util/clock.h"

#include <fmt/chrono.h>

#include <cstdio>
#include <ctime>
#include <thread>

namespace sweep {

void Clock::sleep_for(std::chrono::duration<double> d) const { std::this_thread::sleep_for(d); }

std::string iso8601(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::time_point_cast<std::chrono::milliseconds>(t);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", ms);
}

std::optional<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text) {
  const std::string t(text);
  std::tm tm{};
  int ms = 0, used = 0;
  if (std::sscanf(t.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec, &used) != 6)
    return std::nullopt;
  std::string_view rest = text.substr(static_cast<std::size_t>(used));
  if (rest.size() == 5 && rest[0] == '.') {
    for (char c : rest.substr(1, 3)) {
      if (c < '0' || c > '9') return std::nullopt;
      ms = ms * 10 + (c - '0');
    }
    rest.remove_prefix(4);
  }
  if (rest != "Z" || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(::timegm(&tm)) + std::chrono::milliseconds(ms);
}

std::string compact_stamp(std::chrono::system_clock::time_point t) {
  return fmt::format("{:%Y%m%d-%H%M%S}", std::chrono::time_point_cast<std::chrono::seconds>(t));
}

}  // namespace sweep
