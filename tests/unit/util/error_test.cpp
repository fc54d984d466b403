#include <catch2/catch.hpp>

#include "util/error.h"
#include "util/exit_codes.h"

using namespace sweep;

TEST_CASE("errors carry file:line:column in front of the message") {
  Error e(ErrorKind::invalid_experiment, "unknown key", {"x.yaml", 12, 3});
  CHECK(std::string(e.what()) == "x.yaml:12:3: unknown key");
  CHECK(e.message() == "unknown key");
  CHECK(Error(ErrorKind::io, "no file").what() == std::string("no file"));
  CHECK(SourceLocation{"f", 2, 0}.str() == "f:2");
  CHECK(SourceLocation{"f", 2, 5}.shifted(3).column == 8);
}

TEST_CASE("each error kind has its own exit code") {
  CHECK(exit_code_for(ErrorKind::invalid_experiment) == 3);
  CHECK(exit_code_for(ErrorKind::usage) == 2);
  CHECK(exit_code_for(ErrorKind::internal) == 70);
}
