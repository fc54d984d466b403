// spec::Expr: ownership, binding and the public entry points of the expression language.
#include "spec/expr.h"

#include <fmt/core.h>

#include <algorithm>

#include "spec/expr_node.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

NodePtr clone(const ExprNode& n) {
  auto out = std::make_unique<ExprNode>();
  out->op = n.op;
  out->offset = n.offset;
  out->literal = n.literal;
  out->name = n.name;
  out->slot = n.slot;
  out->fn = n.fn;
  out->kids.reserve(n.kids.size());
  for (const auto& k : n.kids) out->kids.push_back(clone(*k));
  return out;
}

template <typename Visit>
void for_each_name(ExprNode& n, const Visit& visit) {
  if (n.op == Op::slot) visit(n);
  for (auto& k : n.kids) for_each_name(*k, visit);
}

}  // namespace

SourceLocation Site::at(int offset) const {
  SourceLocation out = where;
  const std::size_t end = std::min(static_cast<std::size_t>(offset), text.size());
  const std::size_t newline = text.rfind('\n', end == 0 ? 0 : end - 1);
  if (out.line == 0 || newline == std::string_view::npos || end == 0) return where.shifted(offset);
  out.line += static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(newline) + 1, '\n'));
  out.column = where.column + static_cast<int>(end - newline - 1);
  return out;
}

Expr Expr::parse(std::string_view text, SourceLocation where) {
  Expr e;
  e.root_ = parse_expr_tree(Site{where, text});
  e.text_ = std::string(text);
  e.where_ = std::move(where);
  return e;
}

Expr::Expr(const Expr& other)
    : text_(other.text_), where_(other.where_), root_(other.root_ ? clone(*other.root_) : nullptr) {}

Expr& Expr::operator=(const Expr& other) {
  if (this != &other) *this = Expr(other);
  return *this;
}

Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;
Expr::~Expr() = default;

std::vector<std::string> Expr::names() const {
  std::vector<std::string> out;
  if (!root_) return out;
  for_each_name(*root_, [&](const ExprNode& n) {
    if (std::find(out.begin(), out.end(), n.name) == out.end()) out.push_back(n.name);
  });
  return out;
}

void Expr::bind(const std::vector<std::string>& symbols) {
  if (!root_) return;
  for_each_name(*root_, [&](ExprNode& n) {
    const auto it = std::find(symbols.begin(), symbols.end(), n.name);
    if (it == symbols.end())
      fail_at(Site{where_, text_}.at(n.offset),
              fmt::format("unknown name \"{}\"{}", n.name, did_you_mean(n.name, symbols)));
    n.slot = static_cast<int>(it - symbols.begin());
  });
}

Value Expr::eval(std::span<const Value> slots) const {
  if (!root_) throw Error(ErrorKind::internal, "evaluating an empty expression");
  return eval_node(*root_, slots, Site{where_, text_});
}

}  // namespace sweep::spec
