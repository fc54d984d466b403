// Lexer and recursive-descent parser of the expression language (grammar in spec/expr.h).
#include <fmt/core.h>

#include <array>
#include <charconv>
#include <span>

#include "spec/expr_node.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

enum class Tok { end, literal, name, op };

struct Token {
  Tok kind = Tok::end;
  std::string_view text;  // as written (for literals: including quotes)
  int offset = 0;
  Value value;  // Tok::literal
};

// Longest first, so "**" wins over "*".
constexpr std::array<std::string_view, 23> kPunctuation{"**", "//", "==", "!=", "<=", ">=", "&&", "||",
                                                        "+",  "-",  "*",  "/",  "%",  "<",  ">",  "!",
                                                        "(",  ")",  ",",  "?",  ":",  "=",  "&"};
constexpr std::array<std::string_view, 3> kWordOps{"and", "or", "not"};

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

class Lexer {
 public:
  explicit Lexer(const Site& site) : text_(site.text), site_(site) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n')) ++pos_;
      if (pos_ >= text_.size()) break;
      out.push_back(next());
    }
    // The end sits right after the last token, so "missing operand" errors point next to it.
    const int end = out.empty() ? 0 : out.back().offset + static_cast<int>(out.back().text.size());
    out.push_back(Token{Tok::end, {}, end, {}});
    return out;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    fail_at(site_.at(static_cast<int>(offset)), message);
  }

  Token make(Tok kind, std::size_t start, Value value = {}) const {
    return Token{kind, text_.substr(start, pos_ - start), static_cast<int>(start), std::move(value)};
  }

  Token next() {
    const char c = text_[pos_];
    if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) return number();
    if (c == '\'' || c == '"') return string_literal();
    if (is_name_start(c)) return word();
    for (std::string_view p : kPunctuation) {
      if (text_.substr(pos_, p.size()) != p) continue;
      if (p == "=" || p == "&") fail(pos_, fmt::format("unexpected \"{}\" (did you mean \"{}{}\"?)", p, p, p));
      const std::size_t start = pos_;
      pos_ += p.size();
      return make(Tok::op, start);
    }
    fail(pos_, fmt::format("unexpected character \"{}\"", c));
  }

  Token word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    const std::string_view w = text_.substr(start, pos_ - start);
    if (w == "true" || w == "false") return make(Tok::literal, start, Value(w == "true"));
    for (std::string_view op : kWordOps)
      if (w == op) return make(Tok::op, start);
    return make(Tok::name, start);
  }

  void digits() {
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }

  Token number() {
    const std::size_t start = pos_;
    bool real = false;
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') real = true, ++pos_, digits();
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      real = true, ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail(pos_, "expected digits in the exponent");
      digits();
    }
    if (pos_ < text_.size() && is_name_start(text_[pos_])) fail(pos_, "unexpected letter after a number");
    const std::string_view t = text_.substr(start, pos_ - start);
    if (real) {
      double d = 0;
      std::from_chars(t.data(), t.data() + t.size(), d);
      return make(Tok::literal, start, Value(d));
    }
    std::int64_t i = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), i);
    if (r.ec != std::errc()) fail(start, fmt::format("integer {} is too large (the limit is 2^63-1)", t));
    return make(Tok::literal, start, Value(i));
  }

  Token string_literal() {
    const std::size_t start = pos_;
    const char quote = text_[pos_++];
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail(start, fmt::format("unterminated string (missing closing {})", quote));
      const char c = text_[pos_++];
      if (c == quote) break;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      out.push_back(escape(pos_ - 1));
    }
    return make(Tok::literal, start, Value(std::move(out)));
  }

  // The character a backslash escape at `at` stands for; advances past it.
  char escape(std::size_t at) {
    if (pos_ >= text_.size()) fail(at, "unterminated string (a backslash ends the text)");
    const char e = text_[pos_++];
    switch (e) {
      case '\\':
      case '\'':
      case '"': return e;
      case 'n': return '\n';
      default: fail(at, fmt::format("unknown escape \"\\{}\" (use \\\\, \\', \\\" or \\n)", e));
    }
  }

  std::string_view text_;
  const Site& site_;
  std::size_t pos_ = 0;
};

struct BinOp {
  std::string_view text;
  Op op;
};
constexpr std::array<BinOp, 2> kOrOps{{{"||", Op::logical_or}, {"or", Op::logical_or}}};
constexpr std::array<BinOp, 2> kAndOps{{{"&&", Op::logical_and}, {"and", Op::logical_and}}};
constexpr std::array<BinOp, 6> kCompareOps{
    {{"==", Op::eq}, {"!=", Op::ne}, {"<", Op::lt}, {"<=", Op::le}, {">", Op::gt}, {">=", Op::ge}}};
constexpr std::array<BinOp, 2> kSumOps{{{"+", Op::add}, {"-", Op::sub}}};
constexpr std::array<BinOp, 4> kProductOps{{{"*", Op::mul}, {"/", Op::div}, {"//", Op::floordiv}, {"%", Op::mod}}};

NodePtr make_node(Op op, int offset, std::vector<NodePtr> kids = {}) {
  auto n = std::make_unique<ExprNode>();
  n->op = op;
  n->offset = offset;
  n->kids = std::move(kids);
  return n;
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, const Site& site) : toks_(std::move(tokens)), site_(site) {}

  NodePtr run() {
    NodePtr root = ternary();
    if (peek().kind != Tok::end)
      fail(peek(), fmt::format("unexpected \"{}\" after a complete expression", peek().text));
    return root;
  }

 private:
  using Level = NodePtr (Parser::*)();

  const Token& peek() const { return toks_[pos_]; }
  bool at_op(std::string_view text) const { return peek().kind == Tok::op && peek().text == text; }
  const Token& advance() { return toks_[pos_++]; }

  [[noreturn]] void fail(const Token& at, const std::string& message) const { fail_at(site_.at(at.offset), message); }

  template <std::size_t N>
  const BinOp* is_any(const std::array<BinOp, N>& ops) const {
    for (const BinOp& b : ops)
      if (at_op(b.text)) return &b;
    return nullptr;
  }

  template <std::size_t N>
  NodePtr left_assoc(const std::array<BinOp, N>& ops, Level next) {
    NodePtr left = (this->*next)();
    while (const BinOp* b = is_any(ops)) {
      const int offset = advance().offset;
      std::vector<NodePtr> kids;
      kids.push_back(std::move(left));
      kids.push_back((this->*next)());
      left = make_node(b->op, offset, std::move(kids));
    }
    return left;
  }

  NodePtr ternary() {
    NodePtr cond = logical_or();
    if (!at_op("?")) return cond;
    const Token& question = advance();
    std::vector<NodePtr> kids;
    kids.push_back(std::move(cond));
    kids.push_back(ternary());
    if (!at_op(":")) fail(peek(), fmt::format("expected \":\" to complete the \"?\" at column {}", column(question)));
    advance();
    kids.push_back(ternary());
    return make_node(Op::ternary, question.offset, std::move(kids));
  }

  NodePtr logical_or() { return left_assoc(kOrOps, &Parser::logical_and); }
  NodePtr logical_and() { return left_assoc(kAndOps, &Parser::logical_not); }

  NodePtr logical_not() {
    if (!at_op("!") && !at_op("not")) return compare();
    const int offset = advance().offset;
    std::vector<NodePtr> kids;
    kids.push_back(logical_not());
    return make_node(Op::logical_not, offset, std::move(kids));
  }

  NodePtr compare() {
    NodePtr left = sum();
    const BinOp* b = is_any(kCompareOps);
    if (!b) return left;
    const int offset = advance().offset;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(left));
    kids.push_back(sum());
    if (is_any(kCompareOps)) fail(peek(), "comparisons cannot be chained; combine them with \"and\"");
    return make_node(b->op, offset, std::move(kids));
  }

  NodePtr sum() { return left_assoc(kSumOps, &Parser::product); }
  NodePtr product() { return left_assoc(kProductOps, &Parser::unary); }

  NodePtr unary() {
    if (!at_op("-")) return power();
    const int offset = advance().offset;
    std::vector<NodePtr> kids;
    kids.push_back(unary());
    return make_node(Op::neg, offset, std::move(kids));
  }

  NodePtr power() {
    NodePtr base = atom();
    if (!at_op("**")) return base;
    const int offset = advance().offset;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(base));
    kids.push_back(unary());
    return make_node(Op::pow, offset, std::move(kids));
  }

  NodePtr atom() {
    const Token& t = peek();
    if (t.kind == Tok::literal) {
      NodePtr n = make_node(Op::literal, advance().offset);
      n->literal = t.value;
      return n;
    }
    if (t.kind == Tok::name) return name_or_call();
    if (at_op("(")) return parenthesized();
    if (pos_ == 0) fail(t, t.kind == Tok::end ? "expected an expression, got nothing" : "expected an operand");
    fail(t, fmt::format("expected an operand after \"{}\"", toks_[pos_ - 1].text));
  }

  NodePtr parenthesized() {
    const Token& open = advance();
    NodePtr inner = ternary();
    if (!at_op(")")) fail(peek(), fmt::format("expected \")\" to close the \"(\" at column {}", column(open)));
    advance();
    return inner;
  }

  NodePtr name_or_call() {
    const Token& t = advance();
    if (!at_op("(")) {
      NodePtr n = make_node(Op::slot, t.offset);
      n->name = std::string(t.text);
      return n;
    }
    const FnInfo& info = lookup_function(t);
    NodePtr call = make_node(Op::call, t.offset, arguments());
    call->fn = info.fn;
    check_arity(t, info, static_cast<int>(call->kids.size()));
    return call;
  }

  std::vector<NodePtr> arguments() {
    const Token& open = advance();
    std::vector<NodePtr> args;
    while (!at_op(")")) {
      if (!args.empty()) advance();  // the ","
      args.push_back(ternary());
      if (at_op(")")) break;
      if (!at_op(","))
        fail(peek(), fmt::format("expected \",\" or \")\" in the call opened at column {}", column(open)));
    }
    advance();  // the ")"
    return args;
  }

  const FnInfo& lookup_function(const Token& t) const {
    std::vector<std::string> names;
    for (const FnInfo& f : functions()) {
      if (f.name == t.text) return f;
      names.emplace_back(f.name);
    }
    fail(t, fmt::format("unknown function \"{}\"{}", t.text, did_you_mean(t.text, names)));
  }

  void check_arity(const Token& t, const FnInfo& f, int n) const {
    if (n >= f.min_args && (f.max_args < 0 || n <= f.max_args)) return;
    std::string expected = f.max_args < 0             ? fmt::format("at least {}", f.min_args)
                           : f.min_args == f.max_args ? fmt::format("{}", f.min_args)
                                                      : fmt::format("{} to {}", f.min_args, f.max_args);
    fail(t, fmt::format("\"{}\" takes {} argument{}, got {}", f.name, expected,
                        (f.min_args == 1 && f.max_args <= 1) ? "" : "s", n));
  }

  int column(const Token& t) const { return site_.at(t.offset).column; }

  std::vector<Token> toks_;
  const Site& site_;
  std::size_t pos_ = 0;
};

}  // namespace

NodePtr parse_expr_tree(const Site& site) { return Parser(Lexer(site).run(), site).run(); }

}  // namespace sweep::spec
