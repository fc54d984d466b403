#include <catch2/catch.hpp>

#include "parse/number.h"

using namespace sweep::parse;

TEST_CASE("parse_number accepts decimal and exponent forms") {
  double v = 0;
  CHECK(parse_number("12.5", v) == NumberStatus::ok);
  CHECK(v == 12.5);
  CHECK(parse_number("+3", v) == NumberStatus::ok);
  CHECK(v == 3);
  CHECK(parse_number("-0.25", v) == NumberStatus::ok);
  CHECK(v == -0.25);
  CHECK(parse_number("1e5", v) == NumberStatus::ok);
  CHECK(v == 1e5);
  CHECK(parse_number("  7 ", v) == NumberStatus::ok);
  CHECK(v == 7);
}

TEST_CASE("parse_number rejects what is not a finite number") {
  double v = 42;
  CHECK(parse_number("abc", v) == NumberStatus::not_a_number);
  CHECK(parse_number("", v) == NumberStatus::not_a_number);
  CHECK(parse_number("+", v) == NumberStatus::not_a_number);
  CHECK(parse_number("+-1", v) == NumberStatus::not_a_number);
  CHECK(parse_number("12abc", v) == NumberStatus::not_a_number);
  CHECK(parse_number("0x10", v) == NumberStatus::not_a_number);
  CHECK(parse_number("1e999", v) == NumberStatus::out_of_range);
  CHECK(parse_number("inf", v) == NumberStatus::not_finite);
  CHECK(parse_number("-inf", v) == NumberStatus::not_finite);
  CHECK(parse_number("nan", v) == NumberStatus::not_finite);
  CHECK(parse_number("+NaN", v) == NumberStatus::not_finite);
  CHECK(v == 42);  // untouched on failure
  CHECK(describe(NumberStatus::not_finite) == "is not finite");
}
