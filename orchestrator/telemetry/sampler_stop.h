#pragma once
// `sweep-telemetry stop PID`: ends a sampler and waits until it has written `end` and is gone.
#include <string>
#include <string_view>

namespace sweep::telemetry {

/// The process name a sampler has in /proc/<pid>/comm (15 characters at most, as the kernel keeps).
inline constexpr std::string_view kSamplerComm = "sweep-telemetry";

/// Sends SIGTERM to `pid` when it is a sampler of this user, and waits (polling, at most `wait_s`)
/// until it is gone (exited, or a zombie its parent has not reaped yet). Returns 0 when it is gone,
/// was gone already, or `pid` is now another program (the sampler ended and its pid was reused: that
/// process is not signalled); 1 when it outlives the wait. `note` says what was found, for stderr.
int stop_sampler(int pid, double wait_s, std::string& note);

}  // namespace sweep::telemetry
