#define PCRE2_CODE_UNIT_WIDTH 8
#include "parse/regex_rule.h"

#include <fmt/core.h>
#include <pcre2.h>

#include <array>
#include <cstdint>
#include <string>

namespace sweep::parse {

namespace {

std::string pcre2_message(int code) {
  std::array<PCRE2_UCHAR, 256> buffer{};
  const int n = pcre2_get_error_message(code, buffer.data(), buffer.size());
  if (n < 0) return fmt::format("PCRE2 error {}", code);
  return std::string(reinterpret_cast<const char*>(buffer.data()), static_cast<std::size_t>(n));
}

/// Frees every per-call matching resource, in reverse order of creation.
struct MatchState {
  pcre2_match_data* data = nullptr;
  pcre2_match_context* context = nullptr;
  pcre2_jit_stack* stack = nullptr;
  ~MatchState() {
    pcre2_match_data_free(data);
    pcre2_match_context_free(context);
    pcre2_jit_stack_free(stack);
  }
};

/// Turns one match into an observation, or a warning when its value group is unset or not a number.
void record(const Rule& rule, std::size_t rule_index, std::string_view source, std::string_view text,
            const PCRE2_SIZE* ovector, std::size_t group, LineCursor& lines, Collector& out) {
  const PCRE2_SIZE begin = ovector[2 * group], end = ovector[2 * group + 1];
  // Line numbers are only counted when a warning will be kept.
  if (begin == PCRE2_UNSET)
    return out.warn(source, out.wants_warnings() ? lines.line_of(ovector[0]) : 0,
                    fmt::format("metric \"{}\": the value group did not take part in the match", rule.name));
  double value = 0;
  const std::string_view captured = text.substr(begin, end - begin);
  const NumberStatus status = parse_number(captured, value);
  if (status == NumberStatus::ok) return out.add(rule.name, std::nullopt, value, rule.unit, rule.better, rule_index);
  out.bad_number(captured, status, source, out.wants_warnings() ? lines.line_of(begin) : 0, rule.name);
}

/// Without a group named "value" or like the metric: the pattern's one capturing group, as JUBE and
/// ReFrame users write `time: ([0-9.]+) s`. None, or several, is an error that says what to write.
int sole_group(const pcre2_code* code, const Rule& rule) {
  std::uint32_t groups = 0, named = 0;
  pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
  pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &named);
  if (groups == 1 && named == 0) return 1;
  if (groups - named >= 2)
    fail_at(rule.where, fmt::format("metric \"{}\": the regex has {} unnamed capturing groups, so which one is the value "
                                    "is unclear: name it (?<value>...) or make the others non-capturing (?:...)",
                                    rule.name, groups - named));
  fail_at(rule.where, fmt::format("metric \"{}\": the regex needs a capturing group for the value: one unnamed group, "
                                  "or a group named \"value\" or \"{}\", e.g. (?<value>[-+0-9.eE]+)",
                                  rule.name, rule.name));
}

constexpr PCRE2_SIZE kJitStackStart = 32 * 1024;
constexpr PCRE2_SIZE kJitStackMax = 1024 * 1024;

}  // namespace

struct RegexRule::Code {
  pcre2_code* code = nullptr;
  bool jit = false;
  int group = 0;  // the capture group holding the value
  ~Code() { pcre2_code_free(code); }
};

RegexRule::RegexRule(const Rule& rule) : code_(std::make_unique<Code>()) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  code_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(rule.pattern.data()), rule.pattern.size(), PCRE2_MULTILINE,
                              &error, &offset, nullptr);
  if (!code_->code)
    fail_at(rule.where, fmt::format("metric \"{}\": regex does not compile: {} at offset {} of the pattern", rule.name,
                                    pcre2_message(error), offset));
  for (const std::string& group : {std::string("value"), rule.name}) {
    const int n = pcre2_substring_number_from_name(code_->code, reinterpret_cast<PCRE2_SPTR>(group.c_str()));
    if (n > 0) {
      code_->group = n;
      break;
    }
  }
  if (code_->group == 0) code_->group = sole_group(code_->code, rule);
  code_->jit = pcre2_jit_compile(code_->code, PCRE2_JIT_COMPLETE) == 0;  // else: interpreter, silently
}

RegexRule::~RegexRule() = default;
RegexRule::RegexRule(RegexRule&&) noexcept = default;

void RegexRule::apply(const Rule& rule, std::size_t rule_index, std::string_view source, std::string_view text,
                      Collector& out) const {
  if (text.data() == nullptr) text = std::string_view("", 0);  // PCRE2 refuses a null subject
  MatchState state;
  state.data = pcre2_match_data_create_from_pattern(code_->code, nullptr);
  state.context = pcre2_match_context_create(nullptr);
  if (!state.data || !state.context) return out.warn(source, 0, "out of memory while matching");
  if (code_->jit) {
    state.stack = pcre2_jit_stack_create(kJitStackStart, kJitStackMax, nullptr);
    if (state.stack) pcre2_jit_stack_assign(state.context, nullptr, state.stack);
  }
  const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state.data);
  const auto group = static_cast<std::size_t>(code_->group);
  LineCursor lines(text);
  PCRE2_SIZE start = 0;
  uint32_t options = 0;
  while (start <= text.size()) {
    const int rc = code_->jit
                       ? pcre2_jit_match(code_->code, subject, text.size(), start, options, state.data, state.context)
                       : pcre2_match(code_->code, subject, text.size(), start, options, state.data, state.context);
    if (rc == PCRE2_ERROR_NOMATCH) return;
    if (rc < 0)
      return out.warn(source, 0,
                      fmt::format("metric \"{}\": regex matching stopped: {}", rule.name, pcre2_message(rc)));
    record(rule, rule_index, source, text, ovector, group, lines, out);
    // An empty match must not repeat at the same place: retry there for a non-empty one (Perl's /g).
    options = ovector[0] == ovector[1] ? PCRE2_NOTEMPTY_ATSTART : 0;
    if (ovector[1] < start || (ovector[1] == start && options == 0)) return;  // \K oddities: no progress
    start = ovector[1];
  }
}

}  // namespace sweep::parse
