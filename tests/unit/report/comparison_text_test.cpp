// comparison_text (report/comparison_view.h) with names from a database someone sent (issue 47): a
// line break or a terminal escape in a label, a point, a difference or a matched parameter is shown as
// visible text, so that it can neither forge a line of the comparison nor drive the terminal.
#include <catch2/catch.hpp>

#include <sstream>

#include "report/comparison_view.h"

using namespace sweep::report;

TEST_CASE("comparison text: control characters in labels, points and differences stay visible and on one line") {
  CampaignComparison c;
  c.baseline = "base\nnightly: PASSED";
  c.candidate = "cand\x1b]0;owned\x07";
  c.only_in_baseline = {"p1\nforged: PASSED"};
  c.only_in_candidate = {"p2\x1b[2J"};
  c.differences = {"axis\rrenamed"};
  c.matched_by = {"size\n"};
  c.ignored = {"gpu\x1b"};
  const std::string text = comparison_text(c);
  INFO(text);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  CHECK_THAT(text, Catch::Contains("only in base\\x0anightly: PASSED: p1\\x0aforged: PASSED\n"));
  CHECK_THAT(text, Catch::Contains("only in cand\\x1b]0;owned\\x07: p2\\x1b[2J\n"));
  CHECK_THAT(text, Catch::Contains("differs (--allow-different): axis\\x0drenamed\n"));
  // Every line is one the comparison wrote: none begins with a forged word.
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    CHECK(line.rfind("nightly:", 0) != 0);
    CHECK(line.rfind("forged:", 0) != 0);
  }
}
