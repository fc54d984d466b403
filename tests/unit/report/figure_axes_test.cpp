#include "report/figure_axes.h"

#include <catch2/catch.hpp>

using namespace sweep::report;

TEST_CASE("a log axis over few values has a tic at each of them and a range that hugs them") {
  const XAxis axis = x_axis({32, 64, 128}, {"32", "64", "128"}, true, 2);
  REQUIRE(axis.tics.size() == 3);
  CHECK(axis.tics[0].label == "32");
  CHECK(axis.tics[2].at == 128);
  // Beyond the dodged points (x 2^0.05 either side) by 5% of the span, and no further: no empty decade.
  CHECK(axis.low < 32 / 1.0353);
  CHECK(axis.low > 28);
  CHECK(axis.high > 128 * 1.0353);
  CHECK(axis.high < 145);
}

TEST_CASE("a log axis over more than twelve values keeps gnuplot's decades, and a linear axis never gets value tics") {
  std::vector<double> many;
  std::vector<std::string> labels;
  for (int i = 0; i < 13; ++i) many.push_back(1 << i), labels.push_back(std::to_string(1 << i));
  CHECK(x_axis(many, labels, true, 1).tics.empty());
  const XAxis linear = x_axis({1, 2, 4}, {"1", "2", "4"}, false, 1);
  CHECK(linear.tics.empty());
  CHECK(linear.low == Approx(1 - 0.05 * 3));
  CHECK(linear.high == Approx(4 + 0.05 * 3));
}

TEST_CASE("an axis over one value, no value, or a log axis over zero") {
  const XAxis one = x_axis({8}, {"8"}, true, 1);
  CHECK(one.low < 8);
  CHECK(one.high > 8);
  CHECK(x_axis({}, {}, false, 1).low == x_axis({}, {}, false, 1).high);
  CHECK(x_axis({0, 1}, {"0", "1"}, true, 1).low == 0);
  CHECK(x_axis({0, 1}, {"0", "1"}, true, 1).high == 0);
}

TEST_CASE("series at one x are dodged by a fraction of the smallest gap, symmetrically") {
  // Log: the smallest ratio is 2; two series share a tenth of it: x 2^-0.05 and x 2^0.05.
  CHECK(dodge(0, 2, {32, 64, 128}, true) == Approx(std::pow(2.0, -0.05)));
  CHECK(dodge(1, 2, {32, 64, 128}, true) == Approx(std::pow(2.0, 0.05)));
  CHECK(dodge(0, 1, {32, 64, 128}, true) == 1);
  // Linear: the smallest gap is 1 (2 to 3); three series at -0.05, 0, +0.05.
  CHECK(dodge(0, 3, {1, 2, 3, 10}, false) == Approx(-0.05));
  CHECK(dodge(1, 3, {1, 2, 3, 10}, false) == Approx(0));
  CHECK(dodge(2, 3, {1, 2, 3, 10}, false) == Approx(0.05));
  CHECK(dodged_x(0, 1, {1, 2}, false) == "1");
  CHECK(dodged_x(1, 2, {32, 64}, true) == "($1*1.035265)");
  CHECK(dodged_x(0, 2, {1, 2}, false) == "($1-0.05)");
}

TEST_CASE("the key is left out for one line and put above the plot, outside, for several") {
  CHECK(key_setting(0) == "unset key\n");
  CHECK(key_setting(1) == "unset key\n");
  CHECK(key_setting(2) == "set key outside top center horizontal samplen 2\n");
}
