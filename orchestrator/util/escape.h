#pragma once
// Quoting for the text formats sweep writes (JSON, CSV, XML/HTML, base64 data URIs). Pure.
#include <string>
#include <string_view>

namespace sweep {

/// Appends `text` as a JSON string literal (with quotes); control characters and invalid UTF-8 bytes
/// are escaped as \u00XX so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view text);
std::string json_string(std::string_view text);
/// A JSON number with full precision, or null for NaN and infinities (JSON has neither).
std::string json_number(double value);
void append_json_number(std::string& out, double value);

/// XML character data and attribute values: & < > " escaped; tab, newline and CR as character
/// references (kept in attributes too); every other C0 control, which XML 1.0 cannot carry, as the
/// visible text \xNN, so the document stays well-formed.
std::string xml_text(std::string_view text);

/// RFC 4648 base64 with padding (for data: URIs of inline figures).
std::string base64(std::string_view bytes);

/// Length of the valid UTF-8 sequence starting at text[i] (i < text.size()), or 0 when the byte there
/// starts none (overlong forms and surrogates included).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

/// RFC 4180 field: quoted when it contains a comma, quote, CR or LF (quotes doubled), else verbatim.
std::string csv_field(std::string_view text);

}  // namespace sweep
