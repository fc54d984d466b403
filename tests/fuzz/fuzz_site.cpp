// libFuzzer target: the site file loader (spec::load_site_text: YAML, its keys, resources, env, setup,
// interconnects, thresholds, references) on arbitrary bytes. Every input either loads or throws
// sweep::Error; anything else (a crash, another exception, a leak, a hang) is a bug.
#include <string>

#include "spec/site.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sweep::spec::load_site_text(text, "fuzz-site.yaml");
  } catch (const sweep::Error&) {
  }
  return 0;
}
