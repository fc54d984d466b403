#include "spec/expr.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sweep;
using sweep::spec::Expr;

namespace {

// Expressions in these tests sit at x.yaml:7:10, so text offset k is column 10 + k.
const SourceLocation kAt{"x.yaml", 7, 10};
const std::vector<std::string> kNames{"tp", "pp", "gpus", "model", "ratio", "on"};
const std::vector<Value> kValues{Value(2), Value(4), Value(8), Value("gpt2"), Value(0.5), Value(true)};

Value eval(const std::string& text) {
  Expr e = Expr::parse(text, kAt);
  e.bind(kNames);
  return e.eval(kValues);
}

// The full "file:line:column: message" of the error that parsing, binding or evaluating throws.
std::string error(const std::string& text) {
  try {
    eval(text);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("expr: precedence and associativity") {
  CHECK(eval("1 + 2 * 3") == Value(7));
  CHECK(eval("(1 + 2) * 3") == Value(9));
  CHECK(eval("10 - 3 - 2") == Value(5));
  CHECK(eval("2 ** 3 ** 2") == Value(512));  // right-associative
  CHECK(eval("-2 ** 2") == Value(-4));       // unary minus binds looser than **
  CHECK(eval("2 ** -1") == Value(0.5));
  CHECK(eval("1 + 2 < 4 and not false") == Value(true));
  CHECK(eval("true or false and false") == Value(true));  // and binds tighter than or
  CHECK(eval("!(1 < 2) || 3 >= 3") == Value(true));
  CHECK(eval("1 < 2 ? 10 : 20") == Value(10));
  CHECK(eval("false ? 1 : true ? 2 : 3") == Value(2));
}

TEST_CASE("expr: integer and real arithmetic") {
  CHECK(eval("7 // 2") == Value(3));
  CHECK(eval("-7 // 2") == Value(-4));  // floors like Python
  CHECK(eval("7 // -2") == Value(-4));
  CHECK(eval("-7 % 3") == Value(2));  // Python-style modulo
  CHECK(eval("7 % -3") == Value(-2));
  CHECK(eval("7 / 2") == Value(3.5));
  CHECK(eval("8 / 2") == Value(4.0));  // '/' always yields a real
  CHECK(eval("7.5 // 2") == Value(3.0));
  CHECK(eval("-7.5 % 2") == Value(0.5));
  CHECK(eval("1 + 0.5") == Value(1.5));
  CHECK(eval("2 ** 10") == Value(1024));
  CHECK(eval("1e3") == Value(1000.0));
  CHECK(eval(".5 * 4") == Value(2.0));
}

TEST_CASE("expr: names read slot values") {
  CHECK(eval("tp * pp > gpus") == Value(false));
  CHECK(eval("tp * pp == gpus") == Value(true));
  CHECK(eval("gpus * ratio") == Value(4.0));
  CHECK(eval("on and model == 'gpt2'") == Value(true));
  Expr e = Expr::parse("tp * pp + tp - missing_later", kAt);
  CHECK(e.names() == std::vector<std::string>{"tp", "pp", "missing_later"});
  CHECK(e.text() == "tp * pp + tp - missing_later");
  CHECK(e.where().column == 10);
}

TEST_CASE("expr: strings and comparisons") {
  CHECK(eval("'a' + \"b\"") == Value("ab"));
  CHECK(eval(R"('it\'s' + "\"q\"" + '\\' + 'x\ny')") == Value("it's\"q\"\\x\ny"));
  CHECK(eval("'abc' < 'abd'") == Value(true));
  CHECK(eval("2 == 2.0") == Value(true));  // int and real compare numerically
  CHECK(eval("3 > 2.5") == Value(true));
  CHECK(eval("model == 2") == Value(false));  // string == number is false, not an error
  CHECK(eval("model != 2") == Value(true));
  CHECK(eval("true == 1") == Value(false));  // different types are unequal
}

TEST_CASE("expr: functions") {
  CHECK(eval("min(3, 1, 2)") == Value(1));
  CHECK(eval("max(1, 2.5)") == Value(2.5));
  CHECK(eval("abs(-3)") == Value(3));
  CHECK(eval("abs(-1.5)") == Value(1.5));
  CHECK(eval("floor(2.7)") == Value(2));
  CHECK(eval("ceil(2.1)") == Value(3));
  CHECK(eval("round(2.5)") == Value(2));  // half to even, like Python
  CHECK(eval("round(3.5)") == Value(4));
  CHECK(eval("log2(8)") == Value(3.0));
  CHECK(eval("sqrt(16)") == Value(4.0));
  CHECK(eval("pow(2, 5)") == Value(32));
  CHECK(eval("int(3.9)") == Value(3));
  CHECK(eval("int('42')") == Value(42));
  CHECK(eval("float(2)") == Value(2.0));
  CHECK(eval("str(tp) + '-' + model") == Value("2-gpt2"));
  CHECK(eval("str(0.5)") == Value("0.5"));
}

TEST_CASE("expr: parse errors point at the exact column") {
  CHECK(error("tp * ") == "x.yaml:7:14: expected an operand after \"*\"");
  CHECK(error("tp * * pp") == "x.yaml:7:15: expected an operand after \"*\"");
  CHECK(error("") == "x.yaml:7:10: expected an expression, got nothing");
  CHECK(error("(tp + 1") == "x.yaml:7:17: expected \")\" to close the \"(\" at column 10");
  CHECK(error("tp pp") == "x.yaml:7:13: unexpected \"pp\" after a complete expression");
  CHECK(error("tp = 2") == "x.yaml:7:13: unexpected \"=\" (did you mean \"==\"?)");
  CHECK(error("1 < 2 < 3") == "x.yaml:7:16: comparisons cannot be chained; combine them with \"and\"");
  CHECK(error("'abc") == "x.yaml:7:10: unterminated string (missing closing ')");
  CHECK(error("'a\\qb'") == "x.yaml:7:12: unknown escape \"\\q\" (use \\\\, \\', \\\" or \\n)");
  CHECK(error("tp $ 2") == "x.yaml:7:13: unexpected character \"$\"");
  CHECK(error("99999999999999999999") ==
        "x.yaml:7:10: integer 99999999999999999999 is too large (the limit is 2^63-1)");
  CHECK(error("true ? 1") == "x.yaml:7:18: expected \":\" to complete the \"?\" at column 15");
  CHECK(error("max(1 2)") == "x.yaml:7:16: expected \",\" or \")\" in the call opened at column 13");
  CHECK(error("3x") == "x.yaml:7:11: unexpected letter after a number");
}

TEST_CASE("expr: unknown functions and names suggest the closest match") {
  CHECK(error("mx(tp, pp)") == "x.yaml:7:10: unknown function \"mx\" (did you mean \"max\"?)");
  CHECK(error("sqrt(1, 2)") == "x.yaml:7:10: \"sqrt\" takes 1 argument, got 2");
  CHECK(error("pow(1)") == "x.yaml:7:10: \"pow\" takes 2 arguments, got 1");
  CHECK(error("min()") == "x.yaml:7:10: \"min\" takes at least 1 argument, got 0");
  CHECK(error("tp * gpu") == "x.yaml:7:15: unknown name \"gpu\" (did you mean \"gpus\"?)");
  CHECK(error("zzz") == "x.yaml:7:10: unknown name \"zzz\"");
}

TEST_CASE("expr: runtime errors name the operator and types") {
  CHECK(error("tp / 0") == "x.yaml:7:13: division by zero in \"/\"");
  CHECK(error("tp // 0") == "x.yaml:7:13: division by zero in \"//\"");
  CHECK(error("tp % 0") == "x.yaml:7:13: modulo by zero");
  CHECK(error("1.5 % 0.0") == "x.yaml:7:14: modulo by zero");
  CHECK(error("-model") == "x.yaml:7:10: cannot apply \"-\" to string");
  CHECK(error("model * 2") == "x.yaml:7:16: cannot apply \"*\" to string and int");
  CHECK(error("model < 2") == "x.yaml:7:16: cannot compare string and int with \"<\"");
  CHECK(error("tp and on") == "x.yaml:7:13: \"and\" needs bool operands, got int");
  CHECK(error("not tp") == "x.yaml:7:10: \"not\" needs a bool operand, got int");
  CHECK(error("tp ? 1 : 2") == "x.yaml:7:13: the condition before \"?\" must be bool, got int");
  CHECK(error("9223372036854775807 + 1") == "x.yaml:7:30: integer overflow in \"+\"");
  CHECK(error("2 ** 64") == "x.yaml:7:12: integer overflow in \"**\"");
  CHECK(error("0 ** -1") == "x.yaml:7:12: division by zero: 0 raised to a negative power");
  CHECK(error("log2(0)") == "x.yaml:7:10: \"log2\" needs a positive number, got 0");
  CHECK(error("sqrt(-1)") == "x.yaml:7:10: \"sqrt\" needs a non-negative number, got -1");
  CHECK(error("int('x1')") == "x.yaml:7:10: \"int\" cannot convert \"x1\" to an integer");
  CHECK(error("abs(model)") == "x.yaml:7:10: \"abs\" needs a number, got string");
}

TEST_CASE("expr: logical operators short-circuit") {
  CHECK(eval("false and 1 / 0 > 0") == Value(false));
  CHECK(eval("true or 1 / 0 > 0") == Value(true));
  CHECK(eval("true ? 1 : 1 / 0") == Value(1));
}

TEST_CASE("expr: copies are independent and keep their binding") {
  Expr a = Expr::parse("tp + 1", kAt);
  a.bind(kNames);
  Expr b = a;
  Expr c = Expr::parse("pp", kAt);
  c = b;
  CHECK(b.eval(kValues) == Value(3));
  CHECK(c.eval(kValues) == Value(3));
  b.bind({"x", "tp"});
  CHECK(b.eval(std::vector<Value>{Value(0), Value(10)}) == Value(11));
  CHECK(a.eval(kValues) == Value(3));
}

TEST_CASE("expr: evaluating without enough slot values is an internal error") {
  Expr e = Expr::parse("gpus", kAt);
  e.bind(kNames);
  CHECK_THROWS_MATCHES(e.eval(std::vector<Value>{Value(1)}), Error,
                       Catch::Predicate<Error>([](const Error& x) { return x.kind() == ErrorKind::internal; }));
}
