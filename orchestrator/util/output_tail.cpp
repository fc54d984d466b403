#include "util/output_tail.h"

#include <fmt/core.h>

namespace sweep {
namespace {

constexpr std::string_view kMarkerStart = "--- last ";
constexpr std::string_view kMarkerEnd = " ---";

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

/// The marker line of a reason, parsed: the stream it names; nullopt-like "" when `line` is not one.
std::string marker_stream(std::string_view line) {
  if (line.substr(0, kMarkerStart.size()) != kMarkerStart || line.size() < kMarkerStart.size() + kMarkerEnd.size() ||
      line.substr(line.size() - kMarkerEnd.size()) != kMarkerEnd)
    return "";
  const std::string_view middle = line.substr(kMarkerStart.size(), line.size() - kMarkerStart.size() - kMarkerEnd.size());
  const auto of = middle.rfind(" of ");
  return of == std::string_view::npos ? "" : std::string(middle.substr(of + 4));
}

/// Each line as a terminal leaves it: a line ending "\r\n" loses its "\r"; a line that a progress bar
/// redrew with "\r" keeps what follows its last "\r".
std::string terminal_lines(std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto cr = line.rfind('\r'); cr != std::string_view::npos) line.remove_prefix(cr + 1);
    out.append(line);
    if (nl == std::string_view::npos) break;
    out.push_back('\n');
    pos = nl + 1;
  }
  return out;
}

}  // namespace

std::string output_tail(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  // Drop trailing blank lines.
  std::size_t end = text.size();
  while (end > 0) {
    const auto start = text.rfind('\n', end - 1);
    const std::size_t from = start == std::string_view::npos ? 0 : start + 1;
    if (!blank(text.substr(from, end - from))) break;
    end = start == std::string_view::npos ? 0 : start;
  }
  if (end == 0 || max_lines == 0 || max_bytes == 0) return "";
  // Walk back over whole lines while both limits hold; [from, cursor) is the line at hand.
  std::size_t begin = end, cursor = end, lines = 0;
  while (lines < max_lines) {
    const auto nl = cursor == 0 ? std::string_view::npos : text.rfind('\n', cursor - 1);
    const std::size_t from = nl == std::string_view::npos ? 0 : nl + 1;
    if (end - from > max_bytes) {
      if (lines == 0) begin = end - max_bytes;  // one long line: keep its end
      break;
    }
    begin = from;
    ++lines;
    if (from == 0) break;
    cursor = from - 1;
  }
  return terminal_lines(text.substr(begin, end - begin));
}

std::string with_tail(std::string_view summary, std::string_view stream, std::string_view tail) {
  if (tail.empty()) return std::string(summary);
  std::size_t lines = 1;
  for (const char c : tail) lines += c == '\n';
  return fmt::format("{}\n{}{} line{} of {}{}\n{}", summary, kMarkerStart, lines, lines == 1 ? "" : "s", stream, kMarkerEnd, tail);
}

ReasonParts split_reason(std::string_view reason) {
  ReasonParts parts;
  std::size_t pos = 0;
  std::string summary_rest;
  bool first = true;
  while (pos <= reason.size()) {
    const auto nl = reason.find('\n', pos);
    const std::string_view line = reason.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (first) {
      parts.headline = std::string(line);
      first = false;
    } else if (std::string stream = marker_stream(line); !stream.empty()) {
      parts.stream = std::move(stream);
      if (nl != std::string_view::npos) parts.tail = std::string(reason.substr(nl + 1));
      break;
    } else {
      parts.details += (parts.details.empty() ? "" : "\n") + std::string(line);
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return parts;
}

std::string_view last_tail_line(const ReasonParts& parts) {
  const std::string_view tail = parts.tail;
  const auto nl = tail.rfind('\n');
  return nl == std::string_view::npos ? tail : tail.substr(nl + 1);
}

}  // namespace sweep
