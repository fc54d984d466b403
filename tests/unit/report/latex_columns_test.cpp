// Decimal alignment of LaTeX value columns: the parts of each number, plain and siunitx.
#include <catch2/catch.hpp>

#include "report/latex_columns.h"

using namespace sweep::report;

TEST_CASE("plain alignment splits each number at its decimal point") {
  const auto c = align_plain({{"45", "7.19"}, {"0.627", "0.00735"}, {"-3.5", ""}, {"", ""}, {"1.2e+15", "3e+13"}});
  CHECK(c.spec == "r@{}l@{\\,}r@{}l");
  CHECK(c.span == 4);
  CHECK(c.cells == std::vector<std::string>{"$45$ &  & ${\\pm}\\,7$ & $.19$", "$0$ & $.627$ & ${\\pm}\\,0$ & $.00735$",
                                             "$-3$ & $.5$ &  & ", "\\multicolumn{4}{c}{--}",
                                             "$1$ & $.2\\times10^{15}$ & ${\\pm}\\,3$ & $\\times10^{13}$"});
  const auto means = align_plain({{"12", ""}, {"nan", ""}});
  CHECK(means.spec == "r@{}l");
  CHECK(means.cells == std::vector<std::string>{"$12$ & ", "$\\mbox{nan}$ & "});
}

TEST_CASE("siunitx table-format counts sign, digits, the padded decimals, uncertainty digits and exponent") {
  // "45 \pm 7.19" reads as 45.00(719): 2 decimals, 3 uncertainty digits; "0.627 \pm 0.00735" as 0.62700(735).
  const auto c = align_siunitx({{"45", "7.19"}, {"0.627", "0.00735"}, {"-123.5", ""}, {"", ""}});
  CHECK(c.spec == "S[table-format=-3.5(3),separate-uncertainty,table-align-uncertainty=false]");
  CHECK(c.cells == std::vector<std::string>{"45 \\pm 7.19", "0.627 \\pm 0.00735", "-123.5", "{--}"});
  CHECK(align_siunitx({{"12", ""}, {"3.25", ""}}).spec == "S[table-format=2.2,separate-uncertainty,table-align-uncertainty=false]");
  CHECK(align_siunitx({{"1.2e-05", ""}}).spec == "S[table-format=1.1e-1,separate-uncertainty,table-align-uncertainty=false]");
  // An exponent in a cell with an uncertainty is written out: siunitx reads no "1.242 \pm 1.967e-05".
  const auto exponents = align_siunitx({{"1.242", "1.967e-05"}, {"1.5e+3", "2e+1"}, {"-1.5e-2", "3e-3"}});
  CHECK(exponents.cells == std::vector<std::string>{"1.242 \\pm 0.00001967", "1500 \\pm 20", "-0.015 \\pm 0.003"});
  CHECK(exponents.spec == "S[table-format=-4.8(4),separate-uncertainty,table-align-uncertainty=false]");
  // One power of ten for both (report/rounding.h's exponent form): siunitx's compact form.
  const auto compact = align_siunitx({{"5.03e-06", "0.12e-06"}, {"1.235e+15", "0.012e+15"}, {"2.0e-06", "1.5e-06"}});
  CHECK(compact.cells == std::vector<std::string>{"5.03(12)e-6", "1.235(12)e15", "2.0(15)e-6"});
  CHECK(compact.spec == "S[table-format=1.3(2)e-2,separate-uncertainty,table-align-uncertainty=false]");
  CHECK(align_siunitx({{"0.2705", "0"}}).spec == "S[table-format=1.4(1),separate-uncertainty,table-align-uncertainty=false]");
}

TEST_CASE("row-label columns: numbers right-aligned, text left") {
  CHECK(key_column_spec({"32", "128", "0.5", "-1e-3"}) == "r");
  CHECK(key_column_spec({"32", "gpt2"}) == "l");
  CHECK(key_column_spec({"1.2.3"}) == "l");
  CHECK(key_column_spec({}) == "l");
}
