// libFuzzer target: the Mustache renderer. The input's first line is a variable value, the rest the
// template; it is parsed, checked against the names {v, w} and rendered with both escapes.
#include <string>

#include "templating/render.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = input.find('\n');
  const std::string value = nl == std::string::npos ? input : input.substr(0, nl);
  const std::string text = nl == std::string::npos ? "" : input.substr(nl + 1);
  try {
    const sweep::templating::Template t(text, {"fuzz.mustache", 1, 1});
    t.check_names({"v", "w"});
    const sweep::templating::Variables vars{{"v", value}, {"w", ""}};
    (void)t.render(vars, sweep::templating::Escape::shell);
    (void)t.render(vars, sweep::templating::Escape::none);
  } catch (const sweep::Error&) {
  }
  return 0;
}
