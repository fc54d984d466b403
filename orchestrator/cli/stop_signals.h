#pragma once
// The signals that stop a campaign driver as Ctrl-C does (runner/stop.h): one place for every command
// that drives a campaign (run, collect, rerun, extend, nightly).
namespace sweep::cli {

/// Installs handlers that set runner::request_stop() for SIGINT, SIGTERM and SIGHUP (a closed terminal),
/// and clears an earlier stop request. SIGHUP is left ignored when it was ignored at start-up (`nohup`):
/// a run started under nohup keeps running when the session closes. On SIGHUP, stdout and stderr that
/// were terminals at install time are pointed at /dev/null in the handler, so that no later write fails
/// on the hung-up terminal (EIO) and the driver records its stop in full.
void install_stop_signals();

/// The signal that stopped the run, 0 when none did.
int stop_signal();

}  // namespace sweep::cli
