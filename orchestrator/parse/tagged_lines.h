#pragma once
// The lines of a run's output with the tag a launcher may have put in front of each: `srun --label`
// ("0: ", " 12: ") or `mpirun --tag-output` ("[1,0]<stdout>:"). Built-in parsers read tagged and
// untagged output alike. Internal to parse/. Pure.
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

namespace sweep::parse {

/// Who printed a line, as far as its tag tells.
struct LineTag {
  bool tagged = false;     // false: the line has no launcher tag
  unsigned long rank = 0;  // srun's task id, or mpirun's rank
  unsigned long job = 0;   // mpirun's job number; 0 for srun

  friend bool operator==(const LineTag&, const LineTag&) = default;
};

/// The order in which a table's owner is chosen: untagged first, then the lowest rank, then the lowest
/// job number.
bool comes_before(const LineTag& a, const LineTag& b);

struct TaggedLine {
  std::size_t number = 0;  // 1-based line number in the source
  LineTag tag;
  std::string_view body;   // the line without its tag (and one space after it) and without a final '\r'
};

/// Splits one line (without its '\n') into tag and body.
TaggedLine split_tag(std::size_t number, std::string_view line);

using TaggedLineVisitor = std::function<void(const TaggedLine&)>;

/// Calls `visit` for every line of `text`, in order. A final line without '\n' is visited too; an
/// empty text has no lines.
void for_each_tagged_line(std::string_view text, const TaggedLineVisitor& visit);

/// Whose table to read when several ranks print one: of the tags of lines whose body satisfies
/// `is_header`, the first in comes_before() order (so untagged output wins, then the lowest rank).
/// Nullopt when no line is a header.
std::optional<LineTag> table_owner(std::string_view text, bool (*is_header)(std::string_view body));

}  // namespace sweep::parse
