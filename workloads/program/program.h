#pragma once
// What the bundled programs (collbench, trainbench) share at their edge: the command line's errors, its
// parsing by CLI11 (kept out of this header), and ending a rank's process with a message and an exit code.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace sweep::program {

/// A command line that names an unknown option or a value an option refuses; the message names both.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// `--help` or `--version`: the message is the text to print (the help, or "<program> <version>\n").
struct HelpRequested : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parses `args` (argv[0] first) into the options `app` defines, with `--version` printing
/// "<program> <version>". Throws UsageError for what CLI11 refuses, HelpRequested for --help and --version.
void parse_command_line(CLI::App& app, const std::vector<std::string>& args, std::string_view program,
                        std::string_view version);

/// Prints "<program>: <who><message>" on stderr after flushing stdout, and ends the process at once with
/// `code`: a rank that returned normally would wait (in MPI_Finalize, or for peers) for ranks that wait for it.
[[noreturn]] void fail(std::string_view program, int code, const std::string& who, const std::string& message);

}  // namespace sweep::program
