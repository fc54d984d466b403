#include "parse/tagged_lines.h"

#include <charconv>
#include <tuple>

namespace sweep::parse {

namespace {

constexpr std::size_t kMaxDigits = 9;  // ranks and job numbers beyond this are not tags

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Reads an unsigned number at `pos` and moves past it; false (pos unchanged) when there is none.
bool read_number(std::string_view s, std::size_t& pos, unsigned long& value) {
  std::size_t end = pos;
  while (end < s.size() && is_digit(s[end]) && end - pos < kMaxDigits) ++end;
  if (end == pos || (end < s.size() && is_digit(s[end]))) return false;
  std::from_chars(s.data() + pos, s.data() + end, value);
  pos = end;
  return true;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

/// The body after a tag that ends at `pos`: one space after the tag belongs to it.
std::string_view after_tag(std::string_view line, std::size_t pos) {
  if (pos < line.size() && line[pos] == ' ') ++pos;
  return line.substr(pos);
}

/// `srun --label`: optional padding, the task id, ':' and then a space or the end of the line.
bool srun_tag(std::string_view line, TaggedLine& out) {
  std::size_t pos = line.find_first_not_of(' ');
  if (pos == std::string_view::npos || !read_number(line, pos, out.tag.rank) || !expect(line, pos, ':')) return false;
  if (pos < line.size() && line[pos] != ' ') return false;
  out.tag.tagged = true;
  out.body = after_tag(line, pos);
  return true;
}

/// `mpirun --tag-output`: "[job,rank]<stream>:".
bool mpirun_tag(std::string_view line, TaggedLine& out) {
  std::size_t pos = 0;
  if (!expect(line, pos, '[') || !read_number(line, pos, out.tag.job) || !expect(line, pos, ',') ||
      !read_number(line, pos, out.tag.rank) || !expect(line, pos, ']') || !expect(line, pos, '<'))
    return false;
  const std::size_t close = line.find(">:", pos);
  if (close == std::string_view::npos || close == pos || close - pos > 8) return false;
  out.tag.tagged = true;
  out.body = after_tag(line, close + 2);
  return true;
}

}  // namespace

bool comes_before(const LineTag& a, const LineTag& b) {
  return std::tuple(a.tagged, a.rank, a.job) < std::tuple(b.tagged, b.rank, b.job);
}

TaggedLine split_tag(std::size_t number, std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const TaggedLine untagged{number, LineTag{}, line};
  TaggedLine attempt = untagged;
  if (mpirun_tag(line, attempt)) return attempt;
  attempt = untagged;
  if (srun_tag(line, attempt)) return attempt;
  return untagged;
}

void for_each_tagged_line(std::string_view text, const TaggedLineVisitor& visit) {
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    visit(split_tag(++number, text.substr(start, end - start)));
    start = end + 1;
  }
}

std::optional<LineTag> table_owner(std::string_view text, bool (*is_header)(std::string_view body)) {
  std::optional<LineTag> owner;
  for_each_tagged_line(text, [&](const TaggedLine& line) {
    if ((!owner || comes_before(line.tag, *owner)) && is_header(line.body)) owner = line.tag;
  });
  return owner;
}

}  // namespace sweep::parse
