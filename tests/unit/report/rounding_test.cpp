// Uncertainty-based rounding (the PDG rule), worked by hand: each case says which of the uncertainty's
// three leading digits decide, how many digits it keeps, and the decimal place the mean is rounded to.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "report/rounding.h"

using namespace sweep::report;

namespace {

struct Case {
  double mean, uncertainty;
  const char* shown_mean;
  const char* shown_uncertainty;
};

}  // namespace

TEST_CASE("a mean is rounded to the decimal place of its uncertainty's one or two significant digits") {
  const Case cases[] = {
      {45, 7.19, "45", "7"},                  // 719: one digit, at 10^0; mean to units
      {45.03, 1.23, "45.0", "1.2"},           // 123: two digits, at 10^-1
      {12, 1.963, "12.0", "2.0"},             // 196: two digits, 1.963 -> 2.0; mean to 10^-1
      {12, 1.581, "12.0", "1.6"},             // 158: two digits
      {0.627, 0.00735, "0.627", "0.007"},     // 735: one digit, at 10^-3
      {0.2706, 0.0123, "0.271", "0.012"},     // 123: two digits, at 10^-3
      {3.14159, 0.0962, "3.14", "0.10"},      // 962: 950..999 rounds up to 1000, two digits "0.10"; mean to 10^-2
      {10, 0.354, "10.00", "0.35"},           // 354: the last leading digits that keep two
      {10, 0.355, "10.0", "0.4"},             // 355 (0.355 is 0.35499999... in binary; to three digits 355): one digit
      {10, 0.949, "10.0", "0.9"},             // 949: the last that keep one
      {10, 0.95, "10.0", "1.0"},              // 950: up to 1000, two digits
      {3, 12, "3", "12"},                     // 120: two digits at 10^0; an uncertainty larger than the mean
      {0.002, 0.5, "0.0", "0.5"},             // 500: one digit at 10^-1; the mean rounds to zero
      {-0.002, 0.5, "0.0", "0.5"},            // a rounded zero has no sign
      {-45.03, 1.23, "-45.0", "1.2"},         // negative means keep their sign
      {45, -7.19, "45", "7"},                 // a negative uncertainty counts by its magnitude
      {12344, 230, "12340", "230"},           // 230: two digits at 10^1; the mean to tens
      {219046, 1234, "219000", "1200"},       // 123: two digits at 10^2
      {0.00012, 0.00003, "0.000120", "0.000030"},  // 300: two digits at 10^-6; 1.2e-4 is not yet tiny
      {32.5, 6.353, "32", "6"},               // 635: one digit; 32.5 is an exact tie: to the even 32
      {33.5, 6.353, "34", "6"},               // the even neighbour of 33.5 is 34
      {12345, 230, "12340", "230"},           // 1234.5 tens: a tie, to the even 1234 tens
      {12355, 230, "12360", "230"},           // 1235.5 tens: to the even 1236 tens
  };
  for (const auto& c : cases) {
    INFO(c.mean << " ± " << c.uncertainty);
    const RoundedValue r = round_measurement(c.mean, c.uncertainty);
    CHECK(r.mean == c.shown_mean);
    CHECK(r.uncertainty == c.shown_uncertainty);
    CHECK_FALSE(r.zero_spread);
  }
}

TEST_CASE("huge and tiny measurements share one power of ten in exponent form") {
  const Case cases[] = {
      {1.2346e15, 1.2e13, "1.235e+15", "0.012e+15"},    // 120: two digits at 10^12; the mean's power 15, three decimals
      {2e15, 3e14, "2.00e+15", "0.30e+15"},             // 300: two digits at 10^13
      {3, 1.2e15, "0.0e+15", "1.2e+15"},                // the uncertainty is the larger: its power
      {-1.2346e15, 1.2e13, "-1.235e+15", "0.012e+15"},  // negative
      {9.99996e15, 1.2e12, "1.00000e+16", "0.00012e+16"},  // the mean rounds up into the next decade: its power 16
      {5.03e-6, 1.23e-7, "5.03e-06", "0.12e-06"},       // 123: two digits at 10^-8; below 1e-4, power -6
      {5e-5, 1e-5, "5.0e-05", "1.0e-05"},               // 100: two digits at 10^-6
      {2e-6, 9.6e-6, "0.2e-05", "1.0e-05"},             // 960: up to 1000, "1.0e-05"; the uncertainty's power
  };
  for (const auto& c : cases) {
    INFO(c.mean << " ± " << c.uncertainty);
    const RoundedValue r = round_measurement(c.mean, c.uncertainty);
    CHECK(r.mean == c.shown_mean);
    CHECK(r.uncertainty == c.shown_uncertainty);
  }
}

TEST_CASE("a zero uncertainty shows the mean alone to 4 significant digits, marked as having no spread") {
  const RoundedValue r = round_measurement(0.2705, 0);
  CHECK(r.mean == "0.2705");
  CHECK(r.uncertainty.empty());
  CHECK(r.zero_spread);
  CHECK(round_measurement(0.27051234, 0).mean == "0.2705");
  CHECK(round_measurement(128, 0).mean == "128");
  CHECK(round_measurement(219046.4, 0).mean == "219046");  // more integer digits than 4: a rounded integer
  CHECK(round_measurement(1.2e15, 0).mean == "1.2e+15");
  CHECK(round_measurement(0.2705, 0, 2).mean == "0.27");  // declared digits apply
  CHECK(plus_minus_text(round_measurement(128, 0)) == "128");
  // An uncertainty below the mean's resolution (2.2e-16 of it) is no spread, not a mean to 321 decimals.
  CHECK(round_measurement(5, 1e-320).zero_spread);
  CHECK(plus_minus_text(round_measurement(0.3, 5e-18)) == "0.3");
  CHECK(plus_minus_text(round_measurement(0.3, 4e-16)) == "0.3000000000000000 ± 0.0000000000000004");  // 4e-16 > 0.3 x 2.2e-16: one digit
}

TEST_CASE("declared digits override the rule: mean and uncertainty to that many significant digits") {
  CHECK(plus_minus_text(round_measurement(12, 1.963, 4)) == "12 ± 1.963");
  CHECK(plus_minus_text(round_measurement(45, 7.19, 3)) == "45 ± 7.19");
  CHECK(plus_minus_text(round_measurement(0.627, 0.00736, 2)) == "0.63 ± 0.0074");
  CHECK(plus_minus_text(round_measurement(219046, 1234, 4)) == "219046 ± 1234");
}

TEST_CASE("NaN and infinite values are written as such, never rounded") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(plus_minus_text(round_measurement(nan, 1)) == "nan ± 1");
  CHECK(plus_minus_text(round_measurement(1, inf)) == "1 ± inf");
  CHECK(plus_minus_text(round_measurement(-inf, 2.5)) == "-inf ± 2.5");
  CHECK(plus_minus_text(round_measurement(2.5, nan)) == "2.5 ± nan");
  const RoundedValue r = round_measurement(inf, 0);
  CHECK((r.mean == "inf" && r.zero_spread));
}

TEST_CASE("the plus-minus text joins the two") {
  CHECK(plus_minus_text(round_measurement(45, 7.19)) == "45 ± 7");
  CHECK(plus_minus_text(round_measurement(0.627, 0.00735)) == "0.627 ± 0.007");
  CHECK(plus_minus_text(round_measurement(1.2346e15, 1.2e13)) == "1.235e+15 ± 0.012e+15");
}
