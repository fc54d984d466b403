// libFuzzer target: matrix expansion of every experiment the loader accepts, derived values and
// exclusions included, up to 10,000 points per input (a valid matrix may be astronomically large).
#include <string>

#include "matrix/expand.h"
#include "spec/load.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const sweep::spec::Experiment e = sweep::spec::load_text(text, "fuzz.yaml");
    const sweep::matrix::Expansion expansion(e);
    std::size_t seen = 0;
    expansion.for_each([&](const sweep::matrix::PointView& p) {
      for (const auto& v : p.values) (void)v.text();
      return ++seen < 10000;
    });
  } catch (const sweep::Error&) {
  }
  return 0;
}
