#include <algorithm>

#include "templating/render.h"

namespace sweep::templating {

namespace {

bool is_shell_safe(char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  constexpr std::string_view kSafePunctuation = "_@%+=:,./-";
  return kSafePunctuation.find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_quote(std::string_view text) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), is_shell_safe)) return std::string(text);
  std::string out = "'";
  out.reserve(text.size() + 2);
  for (const char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

}  // namespace sweep::templating
