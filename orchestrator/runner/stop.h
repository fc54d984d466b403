#pragma once
// The controller's stop request: set by the SIGINT/SIGTERM handler (async-signal-safe: one lock-free
// atomic store) and read by every long step of `sweep run`, from the matrix walk that plans a campaign to
// the run loop, so a signal is honoured from the moment the handler is installed.
#include <atomic>
#include <string_view>

namespace sweep::runner {

/// Asks the controller to stop; safe to call from a signal handler.
void request_stop();
/// Forgets an earlier request (the start of a new command in the same process).
void clear_stop();
bool stop_requested();
/// The flag itself, for a driver that takes one (runner/batch_driver.h).
const std::atomic<bool>& stop_flag();
/// Throws Error(interrupted) naming `during` ("planning", ...) once a stop was requested: for the steps
/// before a campaign is recorded, which leave nothing behind when they stop.
void throw_if_stopped(std::string_view during);

}  // namespace sweep::runner
