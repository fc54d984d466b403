#pragma once
// The clock seam: everything that reads the time goes through a Clock so tests can drive it.
#include <chrono>
#include <optional>
#include <string_view>
#include <string>

namespace sweep {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Wall-clock time, for timestamps stored in the database.
  virtual std::chrono::system_clock::time_point wall() const = 0;
  /// Monotonic time, for durations and deadlines.
  virtual std::chrono::steady_clock::time_point steady() const = 0;
  /// Waits `d` of this clock's time (the real clocks sleep; a test's clock advances itself at once).
  virtual void sleep_for(std::chrono::duration<double> d) const;
};

/// The real clocks.
class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point wall() const override { return std::chrono::system_clock::now(); }
  std::chrono::steady_clock::time_point steady() const override { return std::chrono::steady_clock::now(); }
};

/// UTC ISO-8601 with milliseconds, e.g. "2026-11-22T06:28:01.123Z". Sorts lexically by time.
std::string iso8601(std::chrono::system_clock::time_point t);
/// The time iso8601() wrote ("2026-11-22T06:28:01.123Z"; the milliseconds may be absent); nullopt for
/// any other text.
std::optional<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text);
/// Compact UTC stamp for labels, e.g. "20261122-062801".
std::string compact_stamp(std::chrono::system_clock::time_point t);

}  // namespace sweep
