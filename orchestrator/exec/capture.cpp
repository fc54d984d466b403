#include "exec/capture.h"

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>

#include <chrono>
#include <future>
#include <thread>

namespace sweep::exec {

namespace bp = boost::process;

std::optional<Captured> capture(const std::vector<std::string>& argv, const std::string& cwd,
                                std::chrono::milliseconds timeout,
                                const std::vector<std::pair<std::string, std::string>>& env) {
  if (argv.empty()) return std::nullopt;
  const bool is_path = argv[0].find('/') != std::string::npos;  // as execvp: a path is used as it is
  const boost::filesystem::path exe = is_path ? boost::filesystem::path(argv[0]) : bp::search_path(argv[0]);
  if (exe.empty()) return std::nullopt;
  try {
    boost::asio::io_context ios;
    std::future<std::string> out;
    std::future<std::string> err;
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    bp::environment environment = boost::this_process::environment();
    for (const auto& [name, value] : env) environment[name] = value;
    bp::child child(exe, bp::args(args), bp::std_in < bp::null, bp::std_out > out, bp::std_err > err,
                    bp::start_dir(cwd.empty() ? "." : cwd), environment, ios);
    Captured result;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    ios.run_until(deadline);  // returns early once both outputs reach EOF
    // EOF comes a moment before the exited process can be reaped: give it until the deadline.
    while (child.running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (child.running()) {
      child.terminate();
      result.timed_out = true;
    }
    child.wait();
    if (!result.timed_out) {
      result.exit_code = child.exit_code();
      result.out = out.get();
      result.err = err.get();
    }
    return result;
  } catch (const bp::process_error&) {
    return std::nullopt;
  }
}

}  // namespace sweep::exec
