#include <catch2/catch.hpp>

#include <string>

#include "util/escape.h"

using namespace sweep;

TEST_CASE("JSON strings escape quotes, control characters and invalid UTF-8") {
  CHECK(json_string("a\"b\\c\n") == R"("a\"b\\c\n")");
  CHECK(json_string(std::string("\x01", 1)) == R"("\u0001")");
  CHECK(json_string("h\xc3\xa9") == "\"h\xc3\xa9\"");           // valid UTF-8 passes through
  CHECK(json_string("\xff\xc3") == R"("\ufffd\ufffd")");          // invalid bytes are replaced
  CHECK(json_string("\xed\xa0\x80") == R"("\ufffd\ufffd\ufffd")");  // a surrogate is invalid
}

TEST_CASE("CSV fields are quoted only when needed") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("base64 follows RFC 4648's test vectors") {
  CHECK(base64("") == "");
  CHECK(base64("f") == "Zg==");
  CHECK(base64("fo") == "Zm8=");
  CHECK(base64("foo") == "Zm9v");
  CHECK(base64("foob") == "Zm9vYg==");
  CHECK(base64("fooba") == "Zm9vYmE=");
  CHECK(base64("foobar") == "Zm9vYmFy");
  CHECK(base64(std::string("\xff\xfe\x00", 3)) == "//4A");
}

TEST_CASE("XML text carries line breaks as references and other controls as visible text, so it stays well-formed") {
  CHECK(xml_text("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(xml_text("one\ntwo\tthree\r") == "one&#10;two&#9;three&#13;");
  CHECK(xml_text(std::string("esc\x1b[31m nul") + '\0' + " bell\x07") == "esc\\x1b[31m nul\\x00 bell\\x07");
  CHECK(xml_text("\xe2\x80\xae rtl") == "\xe2\x80\xae rtl");  // Unicode is XML's own: kept
}
