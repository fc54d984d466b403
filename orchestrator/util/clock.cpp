#include "util/clock.h"

#include <fmt/chrono.h>

namespace sweep {

std::string iso8601(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::time_point_cast<std::chrono::milliseconds>(t);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}Z", ms);
}

std::string compact_stamp(std::chrono::system_clock::time_point t) {
  return fmt::format("{:%Y%m%d-%H%M%S}", std::chrono::time_point_cast<std::chrono::seconds>(t));
}

}  // namespace sweep
