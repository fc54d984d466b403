#include "cli/stop_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>

#include "runner/stop.h"

namespace sweep::cli {
namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_tty_out = 0;  // stdout was a terminal at install time
volatile std::sig_atomic_t g_tty_err = 0;  // stderr was

/// Async-signal-safe: open, dup2 and close only.
void silence_hung_up_terminal() {
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  if (g_tty_out) ::dup2(null, STDOUT_FILENO);
  if (g_tty_err) ::dup2(null, STDERR_FILENO);
  ::close(null);
}

void on_stop_signal(int signal) {
  g_signal = signal;
  if (signal == SIGHUP) silence_hung_up_terminal();
  runner::request_stop();
}

}  // namespace

void install_stop_signals() {
  runner::clear_stop();
  g_signal = 0;
  g_tty_out = ::isatty(STDOUT_FILENO) ? 1 : 0;
  g_tty_err = ::isatty(STDERR_FILENO) ? 1 : 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  struct sigaction old {};
  if (::sigaction(SIGHUP, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;  // nohup: keep ignoring it
  std::signal(SIGHUP, on_stop_signal);
}

int stop_signal() { return g_signal; }

}  // namespace sweep::cli
