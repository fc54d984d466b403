// libFuzzer target: a telemetry file (telemetry/log.h, format 1: the file the sampler writes on each node of
// a run, which a workload on that node could overwrite) on arbitrary bytes, and the run's metrics from it.
// Every input either parses or throws sweep::Error; the summary of what parsed, alone and beside itself
// as a second node, never throws and gives only finite values.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "telemetry/log.h"
#include "telemetry/summary.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const sweep::telemetry::Log log = sweep::telemetry::parse_telemetry(text, "run/telemetry.n1");
    for (const auto& summary : {sweep::telemetry::summarize({log}), sweep::telemetry::summarize({log, log})}) {
      for (const auto& m : summary.metrics)
        if (!std::isfinite(m.value)) std::abort();
      for (const auto& m : sweep::telemetry::per_joule(summary, {{"samples_per_s", 1e300}}))
        if (std::isnan(m.value)) std::abort();
    }
  } catch (const sweep::Error&) {
  }
  return 0;
}
