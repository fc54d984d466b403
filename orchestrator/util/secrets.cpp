#include "util/secrets.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace sweep {
namespace {

constexpr std::array<std::string_view, 8> kSecretWords = {"TOKEN",      "KEY",        "SECRET", "PASSWORD",
                                                          "PASSWD",     "PASSPHRASE", "CREDENTIAL", "AUTH"};

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

/// End of the shell word starting at `at` (quotes kept together); npos when a quote is not closed.
std::size_t word_end(std::string_view s, std::size_t at) {
  while (at < s.size()) {
    const char c = s[at];
    if (c == '\'' || c == '"') {
      std::size_t close = at + 1;
      while (close < s.size() && s[close] != c) close += (c == '"' && s[close] == '\\') ? 2 : 1;
      if (close >= s.size()) return std::string_view::npos;
      at = close + 1;
    } else if (std::string_view(" \t\n;&|()<>").find(c) != std::string_view::npos) {
      return at;
    } else {
      at += c == '\\' ? 2 : 1;
    }
  }
  return std::min(at, s.size());
}

/// The literal a shell word stands for; false when it expands something.
bool literal_of(std::string_view word, std::string& out) {
  if (word.find_first_of("$`") != std::string_view::npos || word.find("{{") != std::string_view::npos) return false;
  char quote = 0;
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    if (quote == 0 && (c == '\'' || c == '"')) quote = c;
    else if (quote != 0 && c == quote) quote = 0;
    else if (c == '\\' && quote != '\'' && i + 1 < word.size()) out += word[++i];
    else out += c;
  }
  return true;
}

/// The offset of 1-based line:column in `text`; npos past its end.
std::size_t offset_of(std::string_view text, int line, int column) {
  std::size_t at = 0;
  for (int l = 1; l < line; ++l) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return at;
    ++at;
  }
  return at + static_cast<std::size_t>(std::max(column, 1) - 1);
}

}  // namespace

std::string secret_line_sed_script() {
  std::string words;
  for (const auto word : kSecretWords) words += (words.empty() ? "" : "|") + std::string(word);
  return "s/^([A-Za-z0-9_]*(" + words + ")[A-Za-z0-9_]*)=.*/\\1=" + std::string(kMask) + "/I";
}

bool secret_name(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  return std::any_of(kSecretWords.begin(), kSecretWords.end(),
                     [&](std::string_view w) { return upper.find(w) != std::string::npos; });
}

namespace {

/// The literal word after an option of a secret-looking name (`--token abc`, `-password 'a b'`) whose
/// first dash is at `i`, as an assignment named by the option in upper case, `-` as `_` (`--api-key` ->
/// API_KEY: the variable a resume takes the masked value from); where the scan goes on in `next`. A word
/// that begins with `-` is the next option, not a value.
std::optional<SecretAssignment> secret_option_value(std::string_view line, std::size_t i, std::size_t& next) {
  next = i + 1;
  if (line[i] != '-' || (i > 0 && std::string_view(" \t;&|(").find(line[i - 1]) == std::string_view::npos)) return std::nullopt;
  std::size_t name = i;
  while (name < line.size() && name - i < 2 && line[name] == '-') ++name;
  std::size_t gap = name;
  while (gap < line.size() && (name_char(line[gap]) || line[gap] == '-')) ++gap;
  std::size_t value = gap;
  while (value < line.size() && (line[value] == ' ' || line[value] == '\t')) ++value;
  if (gap == name || value == gap || value >= line.size() || line[value] == '-') return std::nullopt;
  const std::size_t end = word_end(line, value);
  if (end == std::string_view::npos) return std::nullopt;
  next = end;
  std::string literal;
  const std::string_view option = line.substr(name, gap - name);
  if (!secret_name(option) || !literal_of(line.substr(value, end - value), literal) || literal.empty()) return std::nullopt;
  std::string variable(option);
  std::transform(variable.begin(), variable.end(), variable.begin(),
                 [](unsigned char c) { return c == '-' ? '_' : static_cast<char>(std::toupper(c)); });
  return SecretAssignment{variable, literal, value, end, literal == kMask};
}

}  // namespace

std::vector<SecretAssignment> secret_assignments(std::string_view line) {
  std::vector<SecretAssignment> out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    std::size_t after_option = i;
    if (auto option = secret_option_value(line, i, after_option)) {
      out.push_back(std::move(*option));
      i = after_option - 1;
      continue;
    }
    if (!name_start(line[i]) || (i > 0 && name_char(line[i - 1]))) continue;
    std::size_t eq = i;
    while (eq < line.size() && name_char(line[eq])) ++eq;
    if (eq >= line.size() || line[eq] != '=') continue;
    const std::string_view name = line.substr(i, eq - i);
    const std::size_t end = word_end(line, eq + 1);
    if (end == std::string_view::npos) break;
    std::string value;
    if (secret_name(name) && end > eq + 1 && literal_of(line.substr(eq + 1, end - eq - 1), value) && !value.empty())
      out.push_back({std::string(name), value, eq + 1, end, value == kMask});
    i = end;
  }
  return out;
}

void Masker::add(std::string value) {
  if (value.size() < kMinMaskedValue || std::find(values_.begin(), values_.end(), value) != values_.end()) return;
  values_.push_back(std::move(value));
  std::stable_sort(values_.begin(), values_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
}

std::string Masker::operator()(std::string_view text) const {
  std::string out(text);
  for (const std::string& v : values_)
    for (std::size_t at = out.find(v); at != std::string::npos; at = out.find(v, at + kMask.size()))
      out.replace(at, v.size(), kMask);
  return out;
}

std::optional<std::string> mask_scalar_at(std::string_view text, int line, int column, std::string_view value) {
  const std::size_t at = offset_of(text, line, column);
  const std::size_t eol = std::min(text.find('\n', at), text.size());
  if (at >= text.size() || at >= eol) return std::nullopt;
  std::size_t end = 0;
  if (text[at] == '"' || text[at] == '\'') {
    std::size_t close = at + 1;
    while (close < eol && (text[close] != text[at] || (text[at] == '\'' && text.substr(close, 2) == "''")))
      close += (text[close] == '\\' && text[at] == '"') || text[close] == '\'' ? 2 : 1;
    if (close >= eol) return std::nullopt;
    end = close + 1;
  } else if (text.substr(at, value.size()) == value && !value.empty()) {
    end = at + value.size();
  } else {
    return std::nullopt;
  }
  std::string out(text.substr(0, at));
  out += "\"";
  out += kMask;
  out += "\"";
  out.append(text.substr(end));
  return out;
}

std::optional<std::string> mask_word_from(std::string_view text, int line, int column, std::string_view word) {
  const std::size_t from = offset_of(text, line, column);
  const std::size_t at = word.empty() || from >= text.size() ? std::string_view::npos : text.find(word, from);
  if (at == std::string_view::npos) return std::nullopt;
  std::string out(text);
  out.replace(at, word.size(), kMask);
  return out;
}

}  // namespace sweep
