#include "templating/simple_command.h"

namespace sweep::templating {
namespace {

/// Index just past the quoted text that starts at `i` (a ' or a "), or text.size() when unclosed.
std::size_t past_quotes(std::string_view text, std::size_t i) {
  const char quote = text[i];
  for (++i; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') ++i;
    else if (text[i] == quote) return i + 1;
  }
  return text.size();
}

/// Index just past the command substitution `$(...)` that starts at `i` (its '$'), nested ones and
/// quotes inside it honoured; text.size() when unclosed.
std::size_t past_substitution(std::string_view text, std::size_t i) {
  int depth = 0;
  for (i += 1; i < text.size();) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      i = past_quotes(text, i);
      continue;
    }
    if (c == '\\') i += 1;
    else if (c == '(') ++depth;
    else if (c == ')' && --depth == 0) return i + 1;
    i += 1;
  }
  return text.size();
}

}  // namespace

std::optional<std::string> control_operator(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) text.remove_suffix(1);
  bool word_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      i = past_quotes(text, i);
      word_start = false;
      continue;
    }
    if (c == '\\') {
      i += 2;
      word_start = false;
      continue;
    }
    if (c == '$' && i + 1 < text.size() && text[i + 1] == '(') {
      i = past_substitution(text, i);
      word_start = false;
      continue;
    }
    if (c == '#' && word_start) {  // a comment runs to the end of its line
      const auto eol = text.find('\n', i);
      if (eol == std::string_view::npos) return std::nullopt;
      i = eol;
      continue;
    }
    if (c == '\n') return std::string("a line break");
    if (c == ';' || c == '(' || c == ')') return std::string(1, c);
    if (c == '&' || c == '|') {
      if (i + 1 < text.size() && text[i + 1] == c) return std::string(2, c);
      if (c == '&' && i > 0 && (text[i - 1] == '>' || text[i - 1] == '<')) {  // >&2, <&0: a redirection
        i += 1;
        continue;
      }
      if (c == '&' && i + 1 < text.size() && text[i + 1] == '>') {  // &> file: a redirection
        i += 2;
        continue;
      }
      return std::string(1, c);
    }
    word_start = c == ' ' || c == '\t';
    i += 1;
  }
  return std::nullopt;
}

}  // namespace sweep::templating
