#include "templating/simple_command.h"

#include <catch2/catch.hpp>

using sweep::templating::control_operator;

TEST_CASE("simple_command: one program and its words, however quoted or redirected") {
  for (const char* text : {"collbench --backend gloo", "python3 train.py --lr '0.1; rm -rf ~' \"a && b\"",
                           "sh -c 'make && ./run | tee log'", "prog a\\;b > out.txt 2>&1 < in", "prog $HOME/x \"$(date; id)\"",
                           "prog $(echo a | tr a b) end", "prog # a comment; not a command", "prog &> all.log",
                           "prog arg\n\n  ", "prog 'a\nb'"}) {
    INFO(text);
    CHECK_FALSE(control_operator(text));
  }
}

TEST_CASE("simple_command: each control operator outside quotes is found") {
  const struct {
    const char* text;
    const char* op;
  } cases[] = {
      {"make && ./run", "&&"}, {"a || b", "||"}, {"a; b", ";"}, {"a | tee log", "|"}, {"server & client", "&"},
      {"(cd x)", "("}, {"a\nb", "a line break"}, {"'q' ; b", ";"}, {"a # c\nb", "a line break"}, {"a x#y; b", ";"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    CHECK(control_operator(c.text) == std::optional<std::string>(c.op));
  }
}
