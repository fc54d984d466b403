#pragma once
// Secrets: which values sweep must never write or print, and the one function that masks them (`***`).
// Pure. Every writer of recorded text (the stored experiment, provenance, failure reasons, the
// controller's recorded variables) goes through these (docs/experiment-format.md#secrets).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sweep {

/// What a masked value is replaced with.
inline constexpr std::string_view kMask = "***";

/// Shortest value masked by value: a shorter secret (e.g. "1") would mask unrelated text, so it is
/// masked only where its name or place is known.
inline constexpr std::size_t kMinMaskedValue = 4;

/// Whether a variable name looks like it holds a secret: it contains TOKEN, KEY, SECRET, PASSWORD,
/// PASSWD, PASSPHRASE, CREDENTIAL or AUTH, in any case.
bool secret_name(std::string_view name);

/// The `sed -E` script that masks the value of each `NAME=value` line whose NAME secret_name() holds
/// (`HF_TOKEN=abc` -> `HF_TOKEN=***`), for the job scripts that record environments (comm_env,
/// container_env). It holds no single quote, so it can be single-quoted in shell as it is.
std::string secret_line_sed_script();

/// A literal assigned to a secret-looking name in a shell line (`export HF_TOKEN=abc`,
/// `HF_TOKEN='abc' cmd`), or given to an option of one (`login --token abc`, `--api-key 'a b'`: named
/// TOKEN, API_KEY; a next word that begins with `-` is no value): the value (unquoted) and where its word
/// is in the line, quotes included.
/// An assignment whose value expands something ($, `, {{) holds no literal and is not listed; one whose
/// value is kMask (a stored experiment's masked literal) is listed with `masked`.
struct SecretAssignment {
  std::string name;
  std::string value;
  std::size_t begin = 0, end = 0;  // [begin, end) of the value's word in the line
  bool masked = false;
};
std::vector<SecretAssignment> secret_assignments(std::string_view shell_line);

/// The known secret values of a campaign; masks each occurrence of them in a text.
class Masker {
 public:
  /// Adds a value; values shorter than kMinMaskedValue are ignored (see there).
  void add(std::string value);
  /// `text` with every occurrence of an added value replaced by kMask (longest values first).
  std::string operator()(std::string_view text) const;
  bool empty() const { return values_.empty(); }

 private:
  std::vector<std::string> values_;  // longest first
};

/// `text` (a YAML file) with the scalar that starts at 1-based `line`:`column` replaced by "***"
/// (quoted, so the stored text stays valid YAML): a quoted scalar up to its closing quote on that line,
/// a plain one when the text there is `value`. nullopt when neither is there.
std::optional<std::string> mask_scalar_at(std::string_view text, int line, int column, std::string_view value);

/// `text` with the first occurrence of `word` at or after 1-based `line`:`column` replaced by kMask;
/// nullopt when there is none.
std::optional<std::string> mask_word_from(std::string_view text, int line, int column, std::string_view word);

/// `line` with the words of its secret_assignments() replaced by `replacement(i)` for the i-th.
template <class F>
std::string replace_assignments(std::string_view line, const std::vector<SecretAssignment>& found, F replacement) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    out.append(line.substr(at, found[i].begin - at));
    out += replacement(i);
    at = found[i].end;
  }
  out.append(line.substr(at));
  return out;
}

}  // namespace sweep
