#pragma once
// Private to spec/expr*.cpp: the syntax tree behind spec::Expr. Not part of the module interface.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spec/expr.h"
#include "util/value.h"

namespace sweep::spec {

enum class Op : std::uint8_t {
  literal,
  slot,
  call,
  ternary,  // leaves and special forms
  neg,
  logical_not,  // unary
  add,
  sub,
  mul,
  div,
  floordiv,
  mod,
  pow,  // arithmetic
  eq,
  ne,
  lt,
  le,
  gt,
  ge,  // comparison
  logical_and,
  logical_or,  // short-circuit
};

/// The operator as written in messages ("+", "//", "and", ...).
std::string_view op_text(Op op);

enum class Fn : std::uint8_t { min, max, abs, floor, ceil, round, log2, sqrt, pow, to_int, to_float, to_str };

struct FnInfo {
  std::string_view name;
  Fn fn;
  int min_args;
  int max_args;  // -1: unbounded
};

/// Every function of the language, in the order of the Fn enum.
const std::vector<FnInfo>& functions();

struct ExprNode {
  Op op = Op::literal;
  int offset = 0;    // where in Expr::text() the node's token starts (0-based); errors point there
  Value literal;     // Op::literal
  std::string name;  // Op::slot: the identifier
  int slot = -1;     // Op::slot: index into the bound symbols; -1 until bound
  Fn fn = Fn::min;   // Op::call
  std::vector<std::unique_ptr<ExprNode>> kids;  // operands in order
};

using NodePtr = std::unique_ptr<ExprNode>;

/// An expression's text and where its first character is, for locating errors.
struct Site {
  const SourceLocation& where;
  std::string_view text;

  /// Where text[offset] is: columns shift on the first line; after a newline (literal block scalars)
  /// the line advances and columns restart at where.column.
  SourceLocation at(int offset) const;
};

/// Parses site.text into a tree; throws Error(invalid_experiment) at the offending token.
NodePtr parse_expr_tree(const Site& site);

/// Evaluates a bound tree. Throws Error(invalid_experiment) at the failing node's token.
Value eval_node(const ExprNode& node, std::span<const Value> slots, const Site& site);

}  // namespace sweep::spec
