#pragma once
// The entry of a built-in table parser (nccl-tests, OSU): the table of one rank is read (table_owner:
// untagged output first, then the lowest rank), its lines fed to the parser's own reader. Internal to
// parse/. Pure.
#include <fmt/core.h>

#include <optional>
#include <string_view>

#include "parse/collector.h"
#include "parse/tagged_lines.h"

namespace sweep::parse {

/// What a table parser tells its entry.
struct TableParser {
  std::string_view name;                     // "nccl-tests": the warnings' prefix
  bool (*is_header)(std::string_view body);  // whether a line's body is the parser's table header
  std::string_view example_header;           // shown when no line is a header
};

/// Feeds the lines of the table owner's output in `text` (from `source`) to a `Reader(source, out)`
/// (`line(const TaggedLine&)` for each, then `finish()`). Without a header line: one warning at line 0,
/// "<name>: no result table found (expected a header line like "<example_header>")", and no values.
template <class Reader>
void read_owner_table(const TableParser& parser, std::string_view source, std::string_view text, Collector& out) {
  const std::optional<LineTag> owner = table_owner(text, parser.is_header);
  if (!owner)
    return out.warn(source, 0,
                    fmt::format("{}: no result table found (expected a header line like \"{}\")", parser.name,
                                parser.example_header));
  Reader reader(source, out);
  for_each_tagged_line(text, [&](const TaggedLine& line) {
    if (line.tag == *owner) reader.line(line);
  });
  reader.finish();
}

}  // namespace sweep::parse
