// libFuzzer target: the experiment loader (spec::load_text) on arbitrary bytes. Every input either
// loads or throws sweep::Error; anything else (a crash, another exception, a leak, a hang) is a bug.
#include <string>

#include "spec/load.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sweep::spec::load_text(text, "fuzz.yaml");
  } catch (const sweep::Error&) {
  }
  return 0;
}
