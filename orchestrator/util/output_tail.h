#pragma once
// The evidence a failed attempt's reason carries: the last lines its program printed. One format for
// the drivers that write a reason and the views that print it (docs/database.md, "Failure reasons").
// Pure.
//
// A reason with evidence is its summary (one headline line, then optional detail lines), then a marker
// line "--- last N lines of <stream> ---", then those lines:
//
//   exited with code 1 (expected 0)
//   --- last 2 lines of stderr ---
//   Traceback (most recent call last):
//   RuntimeError: CUDA out of memory
#include <cstddef>
#include <string>
#include <string_view>

namespace sweep {

/// At most this many lines of a run's output are kept in its reason.
inline constexpr std::size_t kTailLines = 20;
/// At most this many bytes of them (a line longer than this keeps its end).
inline constexpr std::size_t kTailBytes = 4096;

/// The last `max_lines` non-blank-ended lines of `text`, at most `max_bytes` bytes: trailing blank lines
/// and a final newline dropped, a first line cut to the bytes that fit (its end kept); "" when `text` is
/// blank. Bytes are kept as they are: printing them is the sink's (util/sinks.h terminal_text).
std::string output_tail(std::string_view text, std::size_t max_lines = kTailLines, std::size_t max_bytes = kTailBytes);

/// `summary` with `tail` (output_tail's answer for `stream`) appended under its marker line; `summary`
/// alone when `tail` is empty.
std::string with_tail(std::string_view summary, std::string_view stream, std::string_view tail);

/// A stored reason taken apart again. A reason without a marker line is all summary.
struct ReasonParts {
  std::string headline;  // the first line
  std::string details;   // the summary's other lines ("" when none)
  std::string stream;    // "stderr", "stdout" or "" when there is no tail
  std::string tail;      // the lines under the marker, without a final newline
};
ReasonParts split_reason(std::string_view reason);

/// The last line of a reason's tail ("" without one): for a traceback, the exception and its message.
std::string_view last_tail_line(const ReasonParts& parts);

}  // namespace sweep
