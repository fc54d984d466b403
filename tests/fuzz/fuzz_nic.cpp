// libFuzzer target: a network-counter snapshot (runner/nic_counters.h, format 1: the file a job script
// writes on each node, which a workload on that node could overwrite) on arbitrary bytes, and the run's
// measure from it. Every input either parses or throws sweep::Error; nic_measure over a parsed start and
// the same text as the end either measures or throws sweep::Error.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runner/nic_counters.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    sweep::runner::NicSnapshot start = sweep::runner::parse_nic_snapshot(text, "run/nic.start.n1");
    sweep::runner::NicSnapshot end = start;
    end.moment = start.moment == "start" ? "end" : "start";
    end.time_s = start.time_s + 1;
    for (sweep::runner::NicCounter& c : end.counters) c.rx_bytes += c.rx_bytes < UINT64_MAX ? 1 : 0;
    for (const sweep::runner::NicCounter& c : start.counters) (void)sweep::runner::carries_traffic(c, start.interfaces);
    (void)sweep::runner::nic_measure({start, end});
  } catch (const sweep::Error&) {
  }
  return 0;
}
