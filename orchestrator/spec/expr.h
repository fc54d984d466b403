#pragma once
// The expression language of `derived:` and `exclude: {where: ...}`. Pure.
//
// Grammar (lowest to highest precedence):
//   ternary  := or ('?' ternary ':' ternary)?
//   or       := and (('||' | 'or') and)*
//   and      := not (('&&' | 'and') not)*
//   not      := ('!' | 'not') not | compare
//   compare  := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
//   sum      := product (('+'|'-') product)*
//   product  := unary (('*'|'/'|'//'|'%') unary)*
//   unary    := '-' unary | power
//   power    := atom ('**' unary)?
//   atom     := integer | real | 'string' | "string" | true | false | name | name '(' args ')' | '(' ternary ')'
// Functions: min, max, abs, floor, ceil, round, log2, sqrt, pow, int, float, str.
// Integers stay integers under + - * // % and **(non-negative exponent); '/' always yields a real.
// '+' on two strings concatenates. Comparisons work on numbers, or on two strings.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"
#include "util/value.h"

namespace sweep::spec {

struct ExprNode;  // defined in expr.cpp

class Expr {
 public:
  /// Parses `text`. `where` is the location of text[0]; parse errors throw Error(invalid_experiment) at
  /// the exact column of the offending token, saying what was expected.
  static Expr parse(std::string_view text, SourceLocation where);

  Expr(const Expr&);
  Expr& operator=(const Expr&);
  Expr(Expr&&) noexcept;
  Expr& operator=(Expr&&) noexcept;
  ~Expr();

  const std::string& text() const { return text_; }
  const SourceLocation& where() const { return where_; }
  /// Every identifier the expression reads (function names excluded), each once, in first-use order.
  std::vector<std::string> names() const;

  /// Resolves identifiers to slot indices in `symbols`. Throws Error(invalid_experiment) at the
  /// identifier's column for a name not in `symbols`, with a "did you mean" suggestion.
  void bind(const std::vector<std::string>& symbols);

  /// Evaluates against slot values (same order as the `symbols` given to bind). Precondition: bound.
  /// Runtime errors (division by zero, type mismatch) throw Error(invalid_experiment) at the operator.
  Value eval(std::span<const Value> slots) const;

 private:
  Expr() = default;
  std::string text_;
  SourceLocation where_;
  std::unique_ptr<ExprNode> root_;
};

}  // namespace sweep::spec
