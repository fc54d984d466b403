#include <catch2/catch.hpp>

#include "templating/render.h"

using sweep::templating::shell_quote;

TEST_CASE("safe words stay as they are") {
  CHECK(shell_quote("abc") == "abc");
  CHECK(shell_quote("a_b@c%d+e=f:g,h.i/j-k") == "a_b@c%d+e=f:g,h.i/j-k");
  CHECK(shell_quote("/usr/bin/env") == "/usr/bin/env");
  CHECK(shell_quote("-rf") == "-rf");  // one word; quoting cannot stop option parsing anyway
  CHECK(shell_quote("--size=8") == "--size=8");
}

TEST_CASE("everything else is single-quoted") {
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("$(touch /tmp/x)") == "'$(touch /tmp/x)'");
  CHECK(shell_quote("`id`") == "'`id`'");
  CHECK(shell_quote("a'; rm -rf ~") == "'a'\\''; rm -rf ~'");
  CHECK(shell_quote("'") == "''\\'''");
  CHECK(shell_quote("line1\nline2") == "'line1\nline2'");
  CHECK(shell_quote("~") == "'~'");
  CHECK(shell_quote("*") == "'*'");
  CHECK(shell_quote("h\xc3\xa9llo") == "'h\xc3\xa9llo'");
}
