// The only user of CLI11 in program/.
#include "program/program.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

namespace sweep::program {

void parse_command_line(CLI::App& app, const std::vector<std::string>& args, std::string_view program,
                        std::string_view version) {
  const std::string version_line = std::string(program) + " " + std::string(version);
  app.set_version_flag("--version", version_line);
  // CLI11 takes them reversed, without argv[0].
  std::vector<std::string> rest(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  try {
    app.parse(rest);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested(app.help());
  } catch (const CLI::CallForVersion&) {
    throw HelpRequested(version_line + "\n");
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
}

void fail(std::string_view program, int code, const std::string& who, const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%.*s: %s%s\n", static_cast<int>(program.size()), program.data(), who.c_str(), message.c_str());
  std::fflush(stderr);
  std::_Exit(code);
}

}  // namespace sweep::program
