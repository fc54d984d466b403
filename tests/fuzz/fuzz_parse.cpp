// libFuzzer target: every log parser at once (a regex rule, a JSON key, the metric-line protocol, and
// the nccl-tests and OSU table parsers) on arbitrary output. extract() never throws by contract.
#include <map>
#include <string>
#include <string_view>

#include "parse/extract.h"

namespace {

const sweep::parse::Extractor& extractor() {
  using sweep::parse::Rule;
  static const sweep::parse::Extractor e({
      Rule{"time", "s", "lower", Rule::Kind::regex, R"(time[:=]\s*(?<value>\S+))", "stdout", {}, "last"},
      Rule{"loss", "", "lower", Rule::Kind::json, "loss", "stdout", {}, ""},
      Rule{"", "", "", Rule::Kind::parser, "nccl-tests", "stdout", {}, ""},
      Rule{"", "", "", Rule::Kind::parser, "osu", "stderr", {}, ""},
  });
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The same bytes as both streams: stdout feeds regex, JSON, metric lines and nccl-tests; stderr OSU.
  (void)extractor().extract({{"stdout", text}, {"stderr", text}});
  return 0;
}
