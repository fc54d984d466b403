#include "util/sinks.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "util/escape.h"
#include "util/sha256.h"

namespace sweep {
namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

void append_hex(std::string& out, unsigned char c) { out += fmt::format("\\x{:02x}", c); }

bool file_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '+';
}

/// True when `text` reads fully as a number (strtod's syntax, e.g. "-1.5", "+3e4"), or a percentage
/// ("-20.0%").
bool is_plain_number(std::string_view text) {
  if (text.size() > 1 && text.back() == '%') text.remove_suffix(1);
  if (text.empty() || text.size() > 64) return false;
  const std::string s(text);
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::none_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; });
}

constexpr std::size_t kFileNameMax = 100, kFileNameKept = 80, kHashDigits = 10;

/// The code point of the character at text[i] when it is one that is never drawn but changes how text
/// around it is shown or read: a C1 control (U+0080..U+009F, e.g. CSI), a bidirectional embedding,
/// override or isolate (U+202A..U+202E, U+2066..U+2069: the "Trojan source" characters), a zero-width or
/// direction mark (U+200B..U+200F), or the BOM (U+FEFF). Its UTF-8 length in `len`; 0 otherwise.
char32_t invisible_format(std::string_view text, std::size_t i, std::size_t& len) {
  const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  if (at(i) == 0xc2 && at(i + 1) >= 0x80 && at(i + 1) <= 0x9f) return len = 2, at(i + 1);
  if (at(i) != 0xe2 && at(i) != 0xef) return 0;
  const char32_t cp = (at(i) & 0x0fu) << 12 | (at(i + 1) & 0x3fu) << 6 | (at(i + 2) & 0x3fu);
  const bool three = (at(i + 1) & 0xc0) == 0x80 && (at(i + 2) & 0xc0) == 0x80;
  const bool hidden = (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
                      cp == 0xfeff;
  if (!three || !hidden) return 0;
  return len = 3, cp;
}

}  // namespace

std::string gnuplot_string(std::string_view text) {
  std::string out = "'";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '\'') out += "''";
    else if (is_control(c)) append_hex(out, c);
    else out += ch;
  }
  return out + "'";
}

std::string gnuplot_comment(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_control(c) || ch == '\\') append_hex(out, c);
    else out += ch;
  }
  return out;
}

std::string safe_file_name(std::string_view text) {
  const bool safe = !text.empty() && text.size() <= kFileNameMax && text.front() != '.' && text.front() != '-' &&
                    std::all_of(text.begin(), text.end(), file_name_char);
  if (safe) return std::string(text);
  std::string out;
  for (const char c : text.substr(0, kFileNameKept)) out += file_name_char(c) ? c : '_';
  if (out.empty() || out.front() == '.' || out.front() == '-') out.insert(out.begin(), '_');
  return out + "-" + sha256_hex(text).substr(0, kHashDigits);
}

std::string terminal_text(std::string_view text, bool keep_lines) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (keep_lines && (c == '\n' || c == '\t' || c == '\\')) {
      out += text[i];
    } else if (is_control(c) || c == '\\') {
      append_hex(out, c);
    } else if (c < 0x80) {
      out += text[i];
    } else if (std::size_t hidden_len = 0; const char32_t cp = invisible_format(text, i, hidden_len)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp));  // a C1 control (CSI), a bidi override
      i += hidden_len - 1;
    } else if (const std::size_t len = utf8_sequence_length(text, i); len > 0) {
      out.append(text.substr(i, len));
      i += len - 1;
    } else {
      append_hex(out, c);
    }
  }
  return out;
}

std::string latex_text(std::string_view text) {
  static constexpr std::pair<char, const char*> kEscapes[] = {
      {'\\', "\\textbackslash{}"}, {'{', "\\{"}, {'}', "\\}"}, {'$', "\\$"}, {'&', "\\&"},
      {'#', "\\#"}, {'^', "\\textasciicircum{}"}, {'_', "\\_"}, {'%', "\\%"}, {'~', "\\textasciitilde{}"},
      {'<', "\\textless{}"}, {'>', "\\textgreater{}"}, {'|', "\\textbar{}"}};
  // Pairs that TeX's fonts set as one glyph ("--" an en dash, "``" an opening quote): "{}" between keeps
  // both characters, as the text has them.
  static constexpr std::string_view kLigatures[] = {"--", "``", "''", "!`", "?`", ",,"};
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const auto c = static_cast<unsigned char>(ch);
    const auto* hit = std::find_if(std::begin(kEscapes), std::end(kEscapes), [ch](const auto& e) { return e.first == ch; });
    std::size_t hidden_len = 0;
    if (hit != std::end(kEscapes)) out += hit->second;
    else if (is_control(c)) out += fmt::format("\\textbackslash{{}}x{:02x}", c);
    else if (const char32_t cp = invisible_format(text, i, hidden_len)) {
      out += fmt::format("\\textbackslash{{}}u{:04x}", static_cast<std::uint32_t>(cp));  // pdflatex has no glyph for it
      i += hidden_len - 1;
      continue;
    } else out += ch;
    if (std::find(std::begin(kLigatures), std::end(kLigatures), text.substr(i, 2)) != std::end(kLigatures)) out += "{}";
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '|': out += "\\|"; break;
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out += is_control(static_cast<unsigned char>(ch)) ? ' ' : ch;
    }
  }
  return out;
}

std::string csv_report_cell(std::string_view text) {
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos &&
                       !is_plain_number(text);
  return csv_field(formula ? "'" + std::string(text) : std::string(text));
}

}  // namespace sweep
