// The bundled programs' shared command line: CLI11's outcomes as UsageError and HelpRequested.
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>

#include "program/program.h"

using namespace sweep::program;

namespace {

struct Parsed {
  int iters = 20;
  std::string op = "allreduce";
};

Parsed parse(const std::vector<std::string>& args) {
  CLI::App app("demo: a bundled program", "demo");
  Parsed p;
  app.add_option("-n,--iters", p.iters, "timed iterations");
  app.add_option("--op", p.op, "collective");
  parse_command_line(app, args, "demo", "1.2.3");
  return p;
}

std::string help_text(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const HelpRequested& h) {
    return h.what();
  }
  return "no help";
}

}  // namespace

TEST_CASE("program command line: options in order, argv[0] skipped") {
  const Parsed p = parse({"demo", "--op", "allgather", "-n", "5"});
  CHECK(p.op == "allgather");
  CHECK(p.iters == 5);
  CHECK(parse({"demo"}).iters == 20);
}

TEST_CASE("program command line: --help and --version are HelpRequested with their text") {
  CHECK(help_text({"demo", "--version"}) == "demo 1.2.3\n");
  const std::string help = help_text({"demo", "--help"});
  CHECK(help.find("demo: a bundled program") != std::string::npos);
  CHECK(help.find("--iters") != std::string::npos);
}

TEST_CASE("program command line: what CLI11 refuses is a UsageError naming it") {
  CHECK_THROWS_WITH(parse({"demo", "--opp", "x"}), Catch::Contains("--opp"));
  CHECK_THROWS_AS(parse({"demo", "--opp", "x"}), UsageError);
  CHECK_THROWS_AS(parse({"demo", "--iters", "many"}), UsageError);
}
