#include <catch2/catch.hpp>

#include "util/sinks.h"

using namespace sweep;

namespace {
const std::string kHostile = "m\nsystem(\"touch CANARY\")\n#";
bool has_control(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}
}  // namespace

TEST_CASE("gnuplot strings double quotes and show control characters as text") {
  CHECK(gnuplot_string("it's") == "'it''s'");
  CHECK(gnuplot_string(kHostile) == "'m\\x0asystem(\"touch CANARY\")\\x0a#'");
  CHECK(gnuplot_string(std::string("a\x1b[2Jb\0c\x7f", 9)) == "'a\\x1b[2Jb\\x00c\\x7f'");
}

TEST_CASE("gnuplot comments cannot end their line nor continue it") {
  CHECK(gnuplot_comment(kHostile) == "m\\x0asystem(\"touch CANARY\")\\x0a#");
  CHECK(gnuplot_comment("ends with \\") == "ends with \\x5c");
  CHECK(gnuplot_comment("a\rb") == "a\\x0db");
}

TEST_CASE("safe file names keep safe names and hash the others") {
  CHECK(safe_file_name("default-busbw") == "default-busbw");
  const std::string slash = safe_file_name("a/b");
  CHECK(slash.rfind("a_b-", 0) == 0);
  CHECK(slash.size() == 4 + 10);
  CHECK(slash != safe_file_name("a_b"));
  CHECK(slash != safe_file_name("a\nb"));
  CHECK(safe_file_name("..").front() == '_');
  CHECK(safe_file_name("-rf").front() == '_');
  CHECK(safe_file_name("").size() == 1 + 1 + 10);
  const std::string huge = safe_file_name(std::string(5000, 'x'));
  CHECK(huge.size() <= 100);
  CHECK(huge != safe_file_name(std::string(5001, 'x')));
  CHECK(!has_control(safe_file_name(kHostile)));
  CHECK(safe_file_name(kHostile).find('/') == std::string::npos);
}

TEST_CASE("terminal text shows escape sequences instead of sending them") {
  CHECK(terminal_text("busbw") == "busbw");
  CHECK(terminal_text("\x1b[31mred") == "\\x1b[31mred");
  CHECK(terminal_text("a\nb\tc\\") == "a\\x0ab\\x09c\\x5c");
  CHECK(terminal_text("\xc2\x9b" "2J") == "\\u009b2J");  // C1 CSI
  CHECK(terminal_text("h\xc3\xa9") == "h\xc3\xa9");       // other UTF-8 passes
  CHECK(terminal_text("\xff") == "\\xff");
  CHECK(terminal_text("user\u202e\u2066txt.exe\u200f") == "user\\u202e\\u2066txt.exe\\u200f");  // Trojan-source characters
  CHECK(terminal_text("| a\\|b |\n\x1b]0;title\x07\r\n", true) == "| a\\|b |\n\\x1b]0;title\\x07\\x0d\n");
}

TEST_CASE("LaTeX text escapes specials and never passes control characters") {
  CHECK(latex_text("a_b&c") == "a\\_b\\&c");
  CHECK(latex_text("<x>") == "\\textless{}x\\textgreater{}");
  CHECK(latex_text(std::string("a\x1b\nb\0", 5)) == "a\\textbackslash{}x1b\\textbackslash{}x0ab\\textbackslash{}x00");
  CHECK(!has_control(latex_text(kHostile)));
  // A right-to-left override (U+202E) stopped pdflatex; it and the other invisible format characters
  // are visible text, and other UTF-8 passes.
  CHECK(latex_text("a\u202eb\u2066c\u200bd\ufeff\u00e9") == "a\\textbackslash{}u202eb\\textbackslash{}u2066c"
                                                         "\\textbackslash{}u200bd\\textbackslash{}ufeff\u00e9");
  CHECK(latex_text("\u2030\u20ac") == "\u2030\u20ac");  // near them, but drawn: passed
  // Ligatures are broken: "--fast" is two hyphens, ``a'' two backquotes and two quotes, "---" three hyphens.
  CHECK(latex_text("--fast") == "-{}-fast");
  CHECK(latex_text("---") == "-{}-{}-");
  CHECK(latex_text("``a''") == "`{}`a'{}'");
  CHECK(latex_text("!`?`,,") == "!{}`?{}`,{},");
  CHECK(latex_text("a-b") == "a-b");
}

TEST_CASE("Markdown cells escape HTML and pipes") {
  CHECK(markdown_cell("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(markdown_cell("a|b&c") == "a\\|b&amp;c");
  CHECK(markdown_cell("two\nlines\x1b") == "two lines ");
}

TEST_CASE("report CSV cells defuse formulas but keep numbers") {
  CHECK(csv_report_cell("=1+1") == "'=1+1");
  CHECK(csv_report_cell("+cmd") == "'+cmd");
  CHECK(csv_report_cell("-cmd|' /C calc'!A0") == "'-cmd|' /C calc'!A0");
  CHECK(csv_report_cell("@SUM(A1)") == "'@SUM(A1)");
  CHECK(csv_report_cell("\tx") == "'\tx");
  CHECK(csv_report_cell("-1.5") == "-1.5");
  CHECK(csv_report_cell("+3e4") == "+3e4");
  CHECK(csv_report_cell("-20.0%") == "-20.0%");
  CHECK(csv_report_cell("-%") == "'-%");
  CHECK(csv_report_cell("-1.5 ") == "'-1.5 ");
  CHECK(csv_report_cell("plain") == "plain");
  CHECK(csv_report_cell("=a,b") == "\"'=a,b\"");
  CHECK(csv_report_cell("") == "");
}
