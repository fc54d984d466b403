#include <catch2/catch.hpp>

#include <string>

#include "util/output_tail.h"

using namespace sweep;

TEST_CASE("output tail: the last lines, trailing blank lines dropped") {
  CHECK(output_tail("a\nb\nc\n\n  \n", 2, 100) == "b\nc");
  CHECK(output_tail("a\nb\nc", 5, 100) == "a\nb\nc");
  CHECK(output_tail("", 5, 100).empty());
  CHECK(output_tail("\n \n\t\n", 5, 100).empty());
  std::string many;
  for (int i = 0; i < 100; ++i) many += "line " + std::to_string(i) + "\n";
  const std::string tail = output_tail(many);
  CHECK(tail.rfind("line 80\n", 0) == 0);
  CHECK(tail.substr(tail.size() - 7) == "line 99");
}

TEST_CASE("output tail: bounded in bytes, a long last line keeps its end") {
  CHECK(output_tail("first\n0123456789\nabc\n", 20, 14) == "0123456789\nabc");
  CHECK(output_tail(std::string(10000, 'x') + "END\n", 20, 100) == std::string(97, 'x') + "END");
  CHECK(output_tail(std::string(1 << 20, 'y')).size() == kTailBytes);
}

TEST_CASE("output tail: lines as a terminal leaves them (CRLF, progress bars)") {
  CHECK(output_tail("a\r\nb\r\n", 5, 100) == "a\nb");
  CHECK(output_tail("epoch 1\n 10%\r 50%\r100%\nKilled\n", 5, 100) == "epoch 1\n100%\nKilled");
}

TEST_CASE("reason with tail: built and taken apart again") {
  const std::string reason = with_tail("exited with code 1 (expected 0)", "stderr", "Traceback:\nValueError: bad lr");
  CHECK(reason == "exited with code 1 (expected 0)\n--- last 2 lines of stderr ---\nTraceback:\nValueError: bad lr");
  const ReasonParts parts = split_reason(reason);
  CHECK(parts.headline == "exited with code 1 (expected 0)");
  CHECK(parts.details.empty());
  CHECK(parts.stream == "stderr");
  CHECK(parts.tail == "Traceback:\nValueError: bad lr");
  CHECK(last_tail_line(parts) == "ValueError: bad lr");
  CHECK(with_tail("killed", "stdout", "") == "killed");
}

TEST_CASE("reason parts: details between the headline and the tail, or none") {
  const ReasonParts plain = split_reason("killed by signal 9 (SIGKILL)");
  CHECK(plain.headline == "killed by signal 9 (SIGKILL)");
  CHECK(plain.stream.empty());
  CHECK(plain.tail.empty());
  CHECK(last_tail_line(plain).empty());
  const ReasonParts d = split_reason(with_tail("required metric not found: x\n  rule a.yaml:3:5\n  hint", "stdout", "out"));
  CHECK(d.headline == "required metric not found: x");
  CHECK(d.details == "  rule a.yaml:3:5\n  hint");
  CHECK(d.stream == "stdout");
  CHECK(d.tail == "out");
}
