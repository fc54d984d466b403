// Evaluation of expression trees: operator and function semantics (documented in
// docs/experiment-format.md). Numeric evaluation never allocates.
#include <fmt/core.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "spec/expr_node.h"

namespace sweep::spec {
namespace {

using I64 = std::int64_t;

constexpr std::array<std::string_view, 21> kOpText{
    "literal", "name", "call", "?",  "-", "not", "+", "-",  "*",   "/", "//",
    "%",       "**",   "==",   "!=", "<", "<=",  ">", ">=", "and", "or"};

[[noreturn]] void fail_node(const ExprNode& n, const Site& w, const std::string& message) {
  fail_at(w.at(n.offset), message);
}

std::string_view tname(const Value& v) { return type_name(v.type()); }

/// How the node's operation is named in messages: the operator, or the function name.
std::string_view label(const ExprNode& n) {
  return n.op == Op::call ? functions()[static_cast<std::size_t>(n.fn)].name : op_text(n.op);
}

[[noreturn]] void mismatch(const ExprNode& n, const Site& w, const Value& a, const Value& b) {
  fail_node(n, w, fmt::format("cannot apply \"{}\" to {} and {}", label(n), tname(a), tname(b)));
}

[[noreturn]] void overflow(const ExprNode& n, const Site& w) {
  fail_node(n, w, fmt::format("integer overflow in \"{}\"", label(n)));
}

[[noreturn]] void by_zero(const ExprNode& n, const Site& w) {
  fail_node(n, w, n.op == Op::mod ? "modulo by zero" : fmt::format("division by zero in \"{}\"", label(n)));
}

bool require_bool(const ExprNode& n, const Site& w, const Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (n.op == Op::ternary) fail_node(n, w, fmt::format("the condition before \"?\" must be bool, got {}", tname(v)));
  fail_node(n, w,
            fmt::format("\"{}\" needs {}, got {}", label(n),
                        n.op == Op::logical_not ? "a bool operand" : "bool operands", tname(v)));
}

/// A real that must become an integer (floor, ceil, round, int).
I64 to_integer(const ExprNode& n, const Site& w, double d) {
  if (!std::isfinite(d) || d < -9.2233720368547758e18 || d >= 9.2233720368547758e18)
    fail_node(n, w, fmt::format("\"{}\" cannot turn {} into an integer", label(n), Value(d).text()));
  return static_cast<I64>(d);
}

Value int_pow(const ExprNode& n, const Site& w, I64 base, I64 exp) {
  if (exp < 0) {
    if (base == 0) fail_node(n, w, "division by zero: 0 raised to a negative power");
    return Value(std::pow(static_cast<double>(base), static_cast<double>(exp)));
  }
  I64 result = 1;
  while (exp > 0) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) overflow(n, w);
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) overflow(n, w);
  }
  return Value(result);
}

Value real_pow(const ExprNode& n, const Site& w, double base, double exp) {
  if (base == 0 && exp < 0) fail_node(n, w, "division by zero: 0 raised to a negative power");
  if (base < 0 && exp != std::floor(exp))
    fail_node(n, w, "a negative number raised to a fractional power has no real value");
  return Value(std::pow(base, exp));
}

Value int_arith(const ExprNode& n, const Site& w, I64 a, I64 b) {
  I64 r = 0;
  switch (n.op) {
    case Op::add:
      if (__builtin_add_overflow(a, b, &r)) overflow(n, w);
      return Value(r);
    case Op::sub:
      if (__builtin_sub_overflow(a, b, &r)) overflow(n, w);
      return Value(r);
    case Op::mul:
      if (__builtin_mul_overflow(a, b, &r)) overflow(n, w);
      return Value(r);
    case Op::div:
      if (b == 0) by_zero(n, w);
      return Value(static_cast<double>(a) / static_cast<double>(b));
    case Op::floordiv:
      if (b == 0) by_zero(n, w);
      if (b == -1 && a == std::numeric_limits<I64>::min()) overflow(n, w);
      return Value(a / b - ((a % b != 0 && ((a < 0) != (b < 0))) ? 1 : 0));
    case Op::mod:
      if (b == 0) by_zero(n, w);
      if (b == -1) return Value(I64{0});
      r = a % b;
      return Value((r != 0 && ((r < 0) != (b < 0))) ? r + b : r);
    default: return int_pow(n, w, a, b);
  }
}

Value real_arith(const ExprNode& n, const Site& w, double a, double b) {
  switch (n.op) {
    case Op::add: return Value(a + b);
    case Op::sub: return Value(a - b);
    case Op::mul: return Value(a * b);
    case Op::div:
      if (b == 0) by_zero(n, w);
      return Value(a / b);
    case Op::floordiv:
      if (b == 0) by_zero(n, w);
      return Value(std::floor(a / b));
    case Op::mod: {
      if (b == 0) by_zero(n, w);
      const double r = std::fmod(a, b);
      return Value((r != 0 && ((r < 0) != (b < 0))) ? r + b : r);
    }
    default: return real_pow(n, w, a, b);
  }
}

Value arith(const ExprNode& n, const Site& w, const Value& a, const Value& b) {
  if (a.is_int() && b.is_int()) return int_arith(n, w, a.as_int(), b.as_int());
  if (a.is_number() && b.is_number()) return real_arith(n, w, a.as_number(), b.as_number());
  if (n.op == Op::add && a.is_string() && b.is_string()) return Value(a.as_string() + b.as_string());
  mismatch(n, w, a, b);
}

bool equal(const Value& a, const Value& b) {
  if (a.is_int() && b.is_int()) return a.as_int() == b.as_int();
  if (a.is_number() && b.is_number()) return a.as_number() == b.as_number();
  return a == b;  // same-type bools or strings; different types are unequal
}

template <typename T>
bool ordered(Op op, const T& a, const T& b) {
  switch (op) {
    case Op::lt: return a < b;
    case Op::le: return a <= b;
    case Op::gt: return a > b;
    default: return a >= b;
  }
}

Value compare(const ExprNode& n, const Site& w, const Value& a, const Value& b) {
  if (n.op == Op::eq) return Value(equal(a, b));
  if (n.op == Op::ne) return Value(!equal(a, b));
  if (a.is_int() && b.is_int()) return Value(ordered(n.op, a.as_int(), b.as_int()));
  if (a.is_number() && b.is_number()) return Value(ordered(n.op, a.as_number(), b.as_number()));
  if (a.is_string() && b.is_string()) return Value(ordered(n.op, a.as_string(), b.as_string()));
  fail_node(n, w, fmt::format("cannot compare {} and {} with \"{}\"", tname(a), tname(b), label(n)));
}

Value negate(const ExprNode& n, const Site& w, const Value& v) {
  if (v.is_real()) return Value(-v.as_real());
  if (!v.is_int()) fail_node(n, w, fmt::format("cannot apply \"-\" to {}", tname(v)));
  if (v.as_int() == std::numeric_limits<I64>::min()) overflow(n, w);
  return Value(-v.as_int());
}

const Value& require_number(const ExprNode& n, const Site& w, const Value& v) {
  if (!v.is_number()) fail_node(n, w, fmt::format("\"{}\" needs a number, got {}", label(n), tname(v)));
  return v;
}

Value round_like(const ExprNode& n, const Site& w, const Value& v, double (*f)(double)) {
  if (require_number(n, w, v).is_int()) return v;
  return Value(to_integer(n, w, f(v.as_real())));
}

Value fn_abs(const ExprNode& n, const Site& w, const Value& v) {
  if (require_number(n, w, v).is_real()) return Value(std::fabs(v.as_real()));
  if (v.as_int() == std::numeric_limits<I64>::min()) overflow(n, w);
  return Value(v.as_int() < 0 ? -v.as_int() : v.as_int());
}

Value fn_log2(const ExprNode& n, const Site& w, const Value& v) {
  const double d = require_number(n, w, v).as_number();
  if (!(d > 0)) fail_node(n, w, fmt::format("\"log2\" needs a positive number, got {}", v.text()));
  return Value(std::log2(d));
}

Value fn_sqrt(const ExprNode& n, const Site& w, const Value& v) {
  const double d = require_number(n, w, v).as_number();
  if (d < 0) fail_node(n, w, fmt::format("\"sqrt\" needs a non-negative number, got {}", v.text()));
  return Value(std::sqrt(d));
}

Value fn_int(const ExprNode& n, const Site& w, const Value& v) {
  if (v.is_bool()) return Value(I64{v.as_bool() ? 1 : 0});
  if (v.is_int()) return v;
  if (v.is_real()) return Value(to_integer(n, w, std::trunc(v.as_real())));
  const std::string& s = v.as_string();
  I64 i = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), i);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty())
    fail_node(n, w, fmt::format("\"int\" cannot convert \"{}\" to an integer", s));
  return Value(i);
}

Value fn_float(const ExprNode& n, const Site& w, const Value& v) {
  if (v.is_bool()) return Value(v.as_bool() ? 1.0 : 0.0);
  if (v.is_number()) return Value(v.as_number());
  const std::string& s = v.as_string();
  double d = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || s.empty())
    fail_node(n, w, fmt::format("\"float\" cannot convert \"{}\" to a number", s));
  return Value(d);
}

/// min/max: numbers only; returns the winning argument unchanged (the first on ties).
Value fn_extreme(const ExprNode& n, std::span<const Value> slots, const Site& w) {
  Value best = eval_node(*n.kids[0], slots, w);
  require_number(n, w, best);
  for (std::size_t i = 1; i < n.kids.size(); ++i) {
    Value v = eval_node(*n.kids[i], slots, w);
    const double x = require_number(n, w, v).as_number();
    if (n.fn == Fn::min ? x < best.as_number() : x > best.as_number()) best = std::move(v);
  }
  return best;
}

Value call(const ExprNode& n, std::span<const Value> slots, const Site& w) {
  if (n.fn == Fn::min || n.fn == Fn::max) return fn_extreme(n, slots, w);
  const Value a = eval_node(*n.kids[0], slots, w);
  switch (n.fn) {
    case Fn::abs: return fn_abs(n, w, a);
    case Fn::floor: return round_like(n, w, a, [](double d) { return std::floor(d); });
    case Fn::ceil: return round_like(n, w, a, [](double d) { return std::ceil(d); });
    case Fn::round: return round_like(n, w, a, [](double d) { return std::nearbyint(d); });
    case Fn::log2: return fn_log2(n, w, a);
    case Fn::sqrt: return fn_sqrt(n, w, a);
    case Fn::to_int: return fn_int(n, w, a);
    case Fn::to_float: return fn_float(n, w, a);
    case Fn::to_str: return Value(a.text());
    default: break;
  }
  const Value b = eval_node(*n.kids[1], slots, w);  // Fn::pow
  if (a.is_int() && b.is_int()) return int_pow(n, w, a.as_int(), b.as_int());
  if (a.is_number() && b.is_number()) return real_pow(n, w, a.as_number(), b.as_number());
  mismatch(n, w, a, b);
}

}  // namespace

std::string_view op_text(Op op) { return kOpText[static_cast<std::size_t>(op)]; }

const std::vector<FnInfo>& functions() {
  static const std::vector<FnInfo> kFunctions{
      {"min", Fn::min, 1, -1},  {"max", Fn::max, 1, -1},    {"abs", Fn::abs, 1, 1},        {"floor", Fn::floor, 1, 1},
      {"ceil", Fn::ceil, 1, 1}, {"round", Fn::round, 1, 1}, {"log2", Fn::log2, 1, 1},      {"sqrt", Fn::sqrt, 1, 1},
      {"pow", Fn::pow, 2, 2},   {"int", Fn::to_int, 1, 1},  {"float", Fn::to_float, 1, 1}, {"str", Fn::to_str, 1, 1}};
  return kFunctions;
}

Value eval_node(const ExprNode& n, std::span<const Value> slots, const Site& w) {
  const auto kid = [&](std::size_t i) { return eval_node(*n.kids[i], slots, w); };
  switch (n.op) {
    case Op::literal: return n.literal;
    case Op::slot:
      if (n.slot < 0 || static_cast<std::size_t>(n.slot) >= slots.size())
        throw Error(ErrorKind::internal, fmt::format("expression \"{}\" evaluated without a value", n.name));
      return slots[static_cast<std::size_t>(n.slot)];
    case Op::call: return call(n, slots, w);
    case Op::ternary: return require_bool(n, w, kid(0)) ? kid(1) : kid(2);
    case Op::neg: return negate(n, w, kid(0));
    case Op::logical_not: return Value(!require_bool(n, w, kid(0)));
    case Op::logical_and: return Value(require_bool(n, w, kid(0)) && require_bool(n, w, kid(1)));
    case Op::logical_or: return Value(require_bool(n, w, kid(0)) || require_bool(n, w, kid(1)));
    case Op::eq:
    case Op::ne:
    case Op::lt:
    case Op::le:
    case Op::gt:
    case Op::ge: return compare(n, w, kid(0), kid(1));
    default: return arith(n, w, kid(0), kid(1));
  }
}

}  // namespace sweep::spec
