#include "runner/stop.h"

#include <fmt/core.h>

#include "util/error.h"

namespace sweep::runner {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop flag is set from a signal handler");

}  // namespace

void request_stop() { g_stop.store(true); }
void clear_stop() { g_stop.store(false); }
bool stop_requested() { return g_stop.load(); }
const std::atomic<bool>& stop_flag() { return g_stop; }

void throw_if_stopped(std::string_view during) {
  if (g_stop.load())
    throw Error(ErrorKind::interrupted, fmt::format("stopped by a signal while {}; nothing was recorded", during));
}

}  // namespace sweep::runner
