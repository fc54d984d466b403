#include <catch2/catch.hpp>

#include "util/value.h"

using namespace sweep;

TEST_CASE("values have canonical text that round-trips through their type") {
  CHECK(Value(std::int64_t{42}).text() == "42");
  CHECK(Value(2.0).text() == "2.0");
  CHECK(Value(0.1).text() == "0.1");
  CHECK(Value(1e300).text() == "1e+300");
  CHECK(Value(true).text() == "true");
  CHECK(Value("gpt2").text() == "gpt2");
  for (const Value& v : {Value(7), Value(-3.25), Value(false), Value("a b"), Value(1e-9)})
    CHECK(value_from_text(v.text(), v.type()) == v);
  CHECK(type_name(ValueType::real) == "float");
  CHECK(type_from_name("int") == ValueType::integer);
}

TEST_CASE("integers and reals with the same magnitude are different values") {
  CHECK_FALSE(Value(2) == Value(2.0));
  CHECK(Value(2).as_number() == Value(2.0).as_number());
}
